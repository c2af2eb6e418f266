//! The samples of the `ten` and `extended` fits, compactly: per quiet position the ten
//! features' differences, the label, the piece count, and for `extended` the further inputs
//! that are not zero, as (index, value) pairs in a side arena. A `ten` sample takes 13 bytes,
//! an `extended` one 13 and two per further input (about twenty: a table entry per piece),
//! where a full vector of inputs would take 120.
//!
//! The samples sit in blocks of [`BLOCK`] (a multiple of the loss's [`CHUNK`]), each allocated
//! once at its full size: the store grows a block at a time and never copies, so its memory is
//! what it holds, and a chunk of the loss never straddles two blocks.

use checkers_engine::eval::{EXTENDED_INPUTS, FEATURE_COUNT};

/// Samples summed by one task of the loss: large enough to amortise the task, small enough to
/// spread. The loss adds the chunks' partial sums in order, so its value does not depend on
/// the threads.
pub const CHUNK: usize = 8192;

/// Samples per block.
pub const BLOCK: usize = 8 * CHUNK;

/// The denominator of a stored label: a label is a byte, `0..=LABEL_SCALE` (0 lost, half of it
/// drawn, all of it won: each exact).
const LABEL_SCALE: u8 = 254;

/// Each stored label's value.
const LABELS: [f64; LABEL_SCALE as usize + 1] = {
    let mut labels = [0.0; LABEL_SCALE as usize + 1];
    let mut i = 0;
    while i < labels.len() {
        labels[i] = i as f64 / LABEL_SCALE as f64;
        i += 1;
    }
    labels
};

/// One sample's fixed part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packed {
    ten: [i8; FEATURE_COUNT],
    label: u8,
    pieces: u8,
    /// Its pairs in the arena (0 for `ten` samples).
    extras: u8,
}

/// One sample, borrowed from its store.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleRef<'a> {
    /// The side to move's counts of the ten features minus the opponent's.
    pub ten: &'a [i8; FEATURE_COUNT],
    /// Pieces on the board (which weight set applies, or how they taper).
    pub pieces: u8,
    /// The extended evaluator's further inputs that are not zero, (index among the extended
    /// inputs, value), in index order; empty in a store without them.
    pub extras: &'a [(u8, i8)],
    label: u8,
}

impl SampleRef<'_> {
    /// The game's result for the side to move: 1 won, ½ drawn, 0 lost (or a share in
    /// between, to 1/254).
    #[inline(always)]
    pub fn label(&self) -> f64 {
        LABELS[usize::from(self.label)]
    }

    /// Every extended input, zeros included.
    pub fn inputs(&self) -> [i8; EXTENDED_INPUTS] {
        let mut inputs = [0; EXTENDED_INPUTS];
        inputs[..FEATURE_COUNT].copy_from_slice(self.ten);
        for &(i, v) in self.extras {
            inputs[usize::from(i)] = v;
        }
        inputs
    }
}

/// The samples of one game (or any few), before they join a store.
#[derive(Clone, Debug, Default)]
pub struct SampleList {
    packed: Vec<Packed>,
    extras: Vec<(u8, i8)>,
    with_extras: bool,
}

impl SampleList {
    /// An empty list, keeping the further inputs or not (`ten` needs only the first ten).
    pub fn new(with_extras: bool) -> SampleList {
        SampleList {
            with_extras,
            ..SampleList::default()
        }
    }

    /// Adds a sample: its extended `inputs`, `pieces` on the board, and its `label` (0 to 1,
    /// kept to the nearest 1/254: results exactly).
    pub fn push(&mut self, inputs: &[i8; EXTENDED_INPUTS], pieces: u8, label: f64) {
        let mut count = 0u8;
        if self.with_extras {
            for (i, &v) in inputs.iter().enumerate().skip(FEATURE_COUNT) {
                if v != 0 {
                    self.extras.push((i as u8, v));
                    count += 1;
                }
            }
        }
        self.packed.push(Packed {
            ten: std::array::from_fn(|i| inputs[i]),
            label: (label.clamp(0.0, 1.0) * f64::from(LABEL_SCALE)).round() as u8,
            pieces,
            extras: count,
        });
    }

    /// Number of samples.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.packed.len()
    }
}

/// One block of a store.
#[derive(Clone, Debug)]
struct Block {
    /// Up to [`BLOCK`] samples (allocated whole).
    packed: Vec<Packed>,
    /// Their further inputs, in sample order.
    extras: Vec<(u8, i8)>,
    /// Where in `extras` each chunk's samples' pairs start.
    chunk_starts: Vec<usize>,
}

impl Block {
    fn new() -> Block {
        Block {
            packed: Vec::with_capacity(BLOCK),
            extras: Vec::new(),
            chunk_starts: Vec::with_capacity(BLOCK / CHUNK),
        }
    }
}

/// The samples of a fit, in order, in blocks (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub struct Samples {
    blocks: Vec<Block>,
    len: usize,
    with_extras: bool,
}

impl Samples {
    /// An empty store, keeping the further inputs or not.
    pub fn new(with_extras: bool) -> Samples {
        Samples {
            with_extras,
            ..Samples::default()
        }
    }

    /// Whether the samples keep the further inputs.
    pub fn with_extras(&self) -> bool {
        self.with_extras
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Blocks allocated (the last one may be part full).
    #[cfg(test)]
    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Adds `list`'s samples after the others.
    pub fn append(&mut self, list: &SampleList) {
        assert_eq!(
            list.with_extras, self.with_extras,
            "samples with and without further inputs do not mix"
        );
        let mut at = 0;
        for packed in &list.packed {
            if self.blocks.last().is_none_or(|b| b.packed.len() == BLOCK) {
                if let Some(full) = self.blocks.last_mut() {
                    full.extras.shrink_to_fit();
                }
                self.blocks.push(Block::new());
            }
            let block = self.blocks.last_mut().expect("pushed above");
            if block.packed.len().is_multiple_of(CHUNK) {
                block.chunk_starts.push(block.extras.len());
            }
            block.packed.push(*packed);
            let pairs = usize::from(packed.extras);
            block.extras.extend_from_slice(&list.extras[at..at + pairs]);
            at += pairs;
        }
        self.len += list.packed.len();
    }

    /// The samples in chunks of [`CHUNK`] (the last one shorter), in order.
    pub fn chunks(&self) -> Vec<Chunk<'_>> {
        let mut chunks = Vec::with_capacity(self.len.div_ceil(CHUNK));
        for block in &self.blocks {
            for (c, &start) in block.chunk_starts.iter().enumerate() {
                let end = block
                    .chunk_starts
                    .get(c + 1)
                    .copied()
                    .unwrap_or(block.extras.len());
                let first = c * CHUNK;
                chunks.push(Chunk {
                    packed: &block.packed[first..block.packed.len().min(first + CHUNK)],
                    extras: &block.extras[start..end],
                });
            }
        }
        chunks
    }

    /// Every sample, in order.
    pub fn iter(&self) -> impl Iterator<Item = SampleRef<'_>> + '_ {
        self.blocks.iter().flat_map(|block| {
            Chunk {
                packed: &block.packed,
                extras: &block.extras,
            }
            .iter()
        })
    }

    /// A copy of the samples with more than `pieces` pieces, in order.
    pub fn with_more_pieces_than(&self, pieces: u32) -> Samples {
        let mut list = SampleList::new(self.with_extras());
        for s in self.iter().filter(|s| u32::from(s.pieces) > pieces) {
            list.push(&s.inputs(), s.pieces, s.label());
        }
        let mut kept = Samples::new(self.with_extras());
        kept.append(&list);
        kept
    }
}

/// Consecutive samples of a store, with their further inputs.
#[derive(Clone, Copy, Debug)]
pub struct Chunk<'a> {
    packed: &'a [Packed],
    extras: &'a [(u8, i8)],
}

impl<'a> Chunk<'a> {
    /// Number of samples.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.packed.len()
    }

    /// The samples, in order.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = SampleRef<'a>> {
        let mut at = 0;
        self.packed.iter().map(move |p| {
            let pairs = usize::from(p.extras);
            let extras = &self.extras[at..at + pairs];
            at += pairs;
            SampleRef {
                ten: &p.ten,
                pieces: p.pieces,
                extras,
                label: p.label,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(seed: usize) -> [i8; EXTENDED_INPUTS] {
        std::array::from_fn(|i| match (i * 7 + seed * 13) % 11 {
            0 => 1,
            1 => -2,
            _ => 0,
        })
    }

    #[test]
    fn a_sample_takes_thirteen_bytes_and_labels_are_exact() {
        assert_eq!(std::mem::size_of::<Packed>(), 13);
        let mut list = SampleList::new(false);
        for label in [0.0, 0.5, 1.0] {
            list.push(&inputs(1), 20, label);
        }
        let mut samples = Samples::new(false);
        samples.append(&list);
        let labels: Vec<f64> = samples.iter().map(|s| s.label()).collect();
        assert_eq!(labels, [0.0, 0.5, 1.0]);
        assert!(samples.iter().all(|s| s.extras.is_empty()));
    }

    /// Samples just over a block: two blocks, every chunk whole but the last, and each
    /// sample's further inputs found again in its chunk.
    #[test]
    fn blocks_and_chunks_keep_every_sample_and_its_inputs() {
        let n = BLOCK + CHUNK + 3;
        let mut samples = Samples::new(true);
        let mut list = SampleList::new(true);
        for i in 0..n {
            list.push(&inputs(i), (i % 24) as u8 + 1, 1.0);
            if list.len() == 1000 {
                samples.append(&list);
                list = SampleList::new(true);
            }
        }
        samples.append(&list);
        assert_eq!((samples.len(), samples.blocks()), (n, 2));
        let chunks = samples.chunks();
        let sizes: Vec<usize> = chunks.iter().map(Chunk::len).collect();
        let mut expected = vec![CHUNK; BLOCK / CHUNK + 1];
        expected.push(3);
        assert_eq!(sizes, expected);
        let mut i = 0;
        for chunk in chunks {
            for s in chunk.iter() {
                assert_eq!(s.inputs(), inputs(i), "sample {i}");
                assert_eq!(usize::from(s.pieces), i % 24 + 1);
                i += 1;
            }
        }
        assert_eq!(i, n);
        assert!(samples.iter().map(|s| s.inputs()).eq((0..n).map(inputs)));
    }
}
