//! What a checkpoint records of a file it cannot rebuild (its own module, so that the
//! checkpoint and the records it proves need not import each other).

use serde::{Deserialize, Serialize};

use crate::text::fingerprint;

/// What a checkpoint records of a file the run appends to but cannot rebuild: its length and
/// the fingerprint of its bytes up to there, so that a changed byte is found, not trusted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileProof {
    /// The file's length in bytes.
    pub bytes: u64,
    /// The fingerprint of those bytes (`text::fingerprint`).
    pub fingerprint: String,
}

impl FileProof {
    /// The proof of `bytes`, a whole file.
    pub fn of(bytes: &[u8]) -> FileProof {
        FileProof {
            bytes: bytes.len() as u64,
            fingerprint: fingerprint(bytes),
        }
    }
}
