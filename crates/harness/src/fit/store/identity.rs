//! Whose store it is.
/// Whose store it is: the run (a hash of its resolved config, which holds its seed: see
/// `run_folder::run_identity`) and the island (`u32::MAX` for a run without islands). Two
/// stores with the same identity hold the same games (a run is deterministic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreIdentity {
    /// The run's identity.
    pub run: u64,
    /// The island's index, `u32::MAX` for none.
    pub island: u32,
}

impl StoreIdentity {
    /// The identity of a run (or of its island `island`) whose resolved config is `config`.
    pub fn new(config: &str, island: Option<u32>) -> StoreIdentity {
        StoreIdentity {
            run: crate::run_folder::run_identity(config),
            island: island.unwrap_or(u32::MAX),
        }
    }

    pub(super) fn bytes(self) -> [u8; 12] {
        let mut out = [0u8; 12];
        out[..8].copy_from_slice(&self.run.to_le_bytes());
        out[8..].copy_from_slice(&self.island.to_le_bytes());
        out
    }

    pub(super) fn from_bytes(bytes: [u8; 12]) -> StoreIdentity {
        StoreIdentity {
            run: u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")),
            island: u32::from_le_bytes(bytes[8..].try_into().expect("4 bytes")),
        }
    }
}

impl std::fmt::Display for StoreIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "run {:016x}", self.run)?;
        if self.island != u32::MAX {
            write!(f, ", island {}", self.island)?;
        }
        Ok(())
    }
}
