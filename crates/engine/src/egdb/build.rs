//! Building the database: every class solved from the rules, smallest classes first.
//!
//! Classes are solved in [`Material::all`] order, so a capture or a crowning always leads into
//! a class that is already finished. A class and its mirror image are solved together (a
//! position's children, with White to move, are numbered as mirrored positions of the mirror
//! class): such a pair is a *unit*. Units with the same number of pieces and men do not depend
//! on each other and are solved in parallel; within a unit, the first pass runs in parallel and
//! the decisions by distance one after the other.
//!
//! Within a unit the work is a retrograde analysis. A first pass looks at every position's
//! moves with the move generator: the moves that leave the unit (captures, crownings) lead to
//! finished classes whose values are known; the moves that stay (a man's or a king's step) are
//! counted. Positions are then decided in order of distance, from buckets: a position with no
//! move is lost at 0; a position lost at `d` makes every predecessor (found by taking a step
//! back, where the side that moved had no capture) won at `d + 1`, unless decided sooner; a
//! position won at `d` takes one from each predecessor's count of moves not yet known to lose,
//! and a predecessor whose every move is now known to lead to a won position is lost one ply
//! after the longest of them. What is never decided is a draw. Each position's moves are
//! generated once and its steps back once per decided position: the work grows with the
//! number of positions, not with the longest distance. (A first version that looked forward
//! from every undecided position at every distance gave the same tables byte for byte and took
//! 30 times longer for four pieces.)

use rayon::prelude::*;

use crate::board::{Bitboard, Color, Direction, Position};

use super::error::EgdbError;
use super::index::{Material, MAX_DATABASE_PIECES};
use super::probe::{Checksum, ClassTable, EndgameDb};
use super::tables::Tables;

/// Largest distance a table byte can hold (the byte is the distance plus one).
const MAX_DISTANCE: u32 = 254;

/// Builds the database of every position with at most `pieces` pieces (1 to
/// [`MAX_DATABASE_PIECES`]). `progress` is told how many numbered positions each finished
/// class held (they add up to [`EndgameDb::len`]); it is called from worker threads.
pub fn build(pieces: u32, progress: &(dyn Fn(u64) + Sync)) -> Result<EndgameDb, EgdbError> {
    if !(1..=MAX_DATABASE_PIECES).contains(&pieces) {
        return Err(EgdbError::Pieces(pieces));
    }
    let (classes, lookup, _) = EndgameDb::layout(pieces);
    let mut tables: Vec<Vec<u8>> = vec![Vec::new(); classes.len()];
    let mut first = 0;
    while first < classes.len() {
        let group_key = |c: &ClassTable| (c.material.pieces(), c.material.men());
        let end = first
            + classes[first..]
                .iter()
                .take_while(|c| group_key(c) == group_key(&classes[first]))
                .count();
        // Pair each class with its mirror image (itself when symmetric).
        let mut units: Vec<Vec<usize>> = Vec::new();
        for i in first..end {
            let mirror = classes[i].material.mirrored();
            let j = (first..end)
                .find(|&j| classes[j].material == mirror)
                .expect("the mirror class has as many pieces and men");
            if j == i {
                units.push(vec![i]);
            } else if i < j {
                units.push(vec![i, j]);
            }
        }
        let solved: Vec<(Vec<usize>, Vec<Vec<u8>>)> = units
            .into_par_iter()
            .map(|unit| {
                let local = solve_unit(&unit, &tables, &classes, &lookup)?;
                let size: usize = local.iter().map(Vec::len).sum();
                progress(size as u64);
                Ok((unit, local))
            })
            .collect::<Result<_, EgdbError>>()?;
        for (unit, local) in solved {
            for (class, table) in unit.into_iter().zip(local) {
                tables[class] = table;
            }
        }
        first = end;
    }
    let total: usize = tables.iter().map(Vec::len).sum();
    let mut sum = Checksum::new(total as u64);
    for table in &tables {
        sum.feed(table);
    }
    Ok(EndgameDb {
        pieces,
        classes,
        lookup,
        data: Tables::owned(tables),
        checksum: sum.finish(),
    })
}

/// What the first pass learns of a position of the unit being solved.
#[derive(Clone, Copy, Debug, Default)]
struct Start {
    /// Moves that stay in the unit (their values are not known yet).
    open_moves: u8,
    /// The longest distance among moves out of the unit to won positions (the opponent's).
    longest_win: u8,
    /// The shortest distance plus one of a move out of the unit to a lost position (0: none).
    won_at: u8,
    /// Some move out of the unit reaches a loss or a draw: this position cannot be lost.
    not_lost: bool,
    /// Which case the position is.
    kind: StartKind,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum StartKind {
    /// A number that stands for no position (a black and a white man on one square).
    #[default]
    Invalid,
    /// The side to move has no move: lost at 0.
    NoMove,
    /// Anything else.
    Open,
}

/// The classes of a unit and their numbering as one range: class `k`'s position `i` is unit
/// number `base[k] + i`.
struct Unit<'a> {
    classes: Vec<(usize, Material)>,
    base: Vec<usize>,
    size: usize,
    done: &'a [Vec<u8>],
    lookup: &'a [u16; Material::KEYS],
}

impl Unit<'_> {
    /// The unit position numbered `id`, if it stands for one.
    fn position(&self, id: usize) -> Option<Position> {
        let k = self
            .base
            .iter()
            .rposition(|&b| b <= id)
            .expect("base[0] is 0");
        self.classes[k].1.position(id - self.base[k])
    }

    /// Where `pos` (Black to move) stands: its unit number, or its class's finished byte.
    #[inline(always)]
    fn locate(&self, pos: &Position) -> Result<usize, u8> {
        let material = Material::of(pos);
        let class = self.lookup[material.key()] as usize;
        let index = material.index(pos);
        match self.classes.iter().position(|&(c, _)| c == class) {
            Some(k) => Ok(self.base[k] + index),
            None => Err(self.done[class][index]),
        }
    }

    /// The first pass for unit position `id`.
    fn start(&self, id: usize) -> Start {
        let Some(pos) = self.position(id) else {
            return Start::default();
        };
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Start {
                kind: StartKind::NoMove,
                ..Start::default()
            };
        }
        let mut start = Start {
            kind: StartKind::Open,
            ..Start::default()
        };
        for mv in &moves {
            let child = pos.play(mv).mirrored();
            let byte = if child.black() == 0 {
                // Every piece of the side to move was taken: lost at 0.
                1
            } else {
                match self.locate(&child) {
                    Ok(_) => {
                        start.open_moves += 1;
                        continue;
                    }
                    Err(byte) => byte,
                }
            };
            if byte % 2 == 0 && byte != 0 {
                start.longest_win = start.longest_win.max(byte - 1);
            } else {
                start.not_lost = true;
                if byte != 0 && (start.won_at == 0 || byte < start.won_at) {
                    // Lost at byte - 1 for the opponent: won at byte for us.
                    start.won_at = byte;
                }
            }
        }
        start
    }
}

/// The positions (Black to move, numbered as mirror images) from which White's step — a
/// king's in any direction, a man's forward without crowning — leads to `pos` (Black to move),
/// and at which White had no capture (a step is only legal then).
fn predecessors(pos: &Position, out: &mut Vec<Position>) {
    out.clear();
    let empty = pos.empty();
    let mut white = pos.white();
    while white != 0 {
        let to = white & white.wrapping_neg();
        white &= white - 1;
        let king = pos.kings() & to != 0;
        // A white man steps up (toward square 1), so it came from below.
        let back: &[Direction] = if king {
            &Direction::ALL
        } else {
            &[Direction::DownLeft, Direction::DownRight]
        };
        for &d in back {
            let from: Bitboard = d.step(to) & empty;
            if from == 0 {
                continue;
            }
            let moved = to | from;
            let before = Position {
                pieces: [pos.black(), pos.white() ^ moved],
                kings: if king {
                    pos.kings() ^ moved
                } else {
                    pos.kings()
                },
                side: Color::White,
            };
            if before.jumpers() == 0 {
                out.push(before.mirrored());
            }
        }
    }
}

/// Solves the classes of `unit` (a class and its mirror image) given every class they can
/// reach by a capture or a crowning in `done`.
fn solve_unit(
    unit: &[usize],
    done: &[Vec<u8>],
    classes: &[ClassTable],
    lookup: &[u16; Material::KEYS],
) -> Result<Vec<Vec<u8>>, EgdbError> {
    let mut base = Vec::with_capacity(unit.len());
    let mut size = 0;
    for &class in unit {
        base.push(size);
        size += classes[class].material.slots();
    }
    let unit = Unit {
        classes: unit.iter().map(|&c| (c, classes[c].material)).collect(),
        base,
        size,
        done,
        lookup,
    };
    let mut starts: Vec<Start> = (0..unit.size)
        .into_par_iter()
        .map(|id| unit.start(id))
        .collect();
    // bucket[d]: positions that are decided at distance d unless decided sooner.
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); MAX_DISTANCE as usize + 2];
    for (id, start) in starts.iter().enumerate() {
        let at = match start.kind {
            StartKind::Invalid => continue,
            StartKind::NoMove => 0,
            StartKind::Open if start.won_at != 0 => start.won_at as usize,
            StartKind::Open if !start.not_lost && start.open_moves == 0 => {
                start.longest_win as usize + 1
            }
            StartKind::Open => continue,
        };
        buckets[at].push(id as u32);
    }
    let mut result = vec![0u8; unit.size];
    let mut before = Vec::new();
    for d in 0..=MAX_DISTANCE as usize {
        let bucket = std::mem::take(&mut buckets[d]);
        for id in bucket {
            let id = id as usize;
            if result[id] != 0 {
                continue;
            }
            result[id] = (d + 1) as u8;
            let pos = unit.position(id).expect("decided positions exist");
            predecessors(&pos, &mut before);
            for p in &before {
                let pid = unit.locate(p).expect("a step stays in the unit");
                if result[pid] != 0 {
                    continue;
                }
                let at = if d % 2 == 0 {
                    // Lost at d: the predecessor wins at d + 1.
                    d + 1
                } else {
                    let start = &mut starts[pid];
                    start.open_moves -= 1;
                    start.longest_win = start.longest_win.max(d as u8);
                    if start.open_moves > 0 || start.not_lost {
                        continue;
                    }
                    start.longest_win as usize + 1
                };
                if at > MAX_DISTANCE as usize {
                    return Err(EgdbError::TooLong(MAX_DISTANCE));
                }
                buckets[at].push(pid as u32);
            }
        }
    }
    let tables = unit.classes.iter().zip(&unit.base);
    Ok(tables
        .map(|(&(_, material), &base)| result[base..base + material.slots()].to_vec())
        .collect())
}
