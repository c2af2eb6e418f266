//! How the rounds of a long run are grouped for drawing, so that a picture of any run stays a
//! few megabytes: a line gets at most two points per group (the lowest and the highest value,
//! so that spikes stay visible), a row of bars one bar per group.

/// The most groups a line or a row of bars is drawn with: a panel is about 1,300 pixels wide,
/// so more would only pile points onto the same pixels.
pub(super) const MAX_GROUPS: i64 = 1500;

/// Runs of at most this many rounds get a dot on every point; longer ones get lines only,
/// since dots a few pixels apart only blot the line and fill the file.
const MAX_DOTTED_ROUNDS: i64 = 300;

/// `width` consecutive rounds per group, from round `first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Grouping {
    first: i64,
    /// Rounds per group, at least 1.
    pub(super) width: i64,
    /// Whether each point gets a dot.
    pub(super) dots: bool,
}

impl Grouping {
    /// Rounds `first..=last` in at most `groups` groups (at least 1).
    pub(super) fn new(first: i64, last: i64, groups: i64) -> Grouping {
        let span = (last - first + 1).max(1);
        let groups = groups.max(1);
        let width = (span + groups - 1) / groups;
        Grouping {
            first,
            width,
            dots: width == 1 && span <= MAX_DOTTED_ROUNDS,
        }
    }

    /// Whether groups hold more than one round.
    pub(super) fn thinned(&self) -> bool {
        self.width > 1
    }

    /// The group of `round`.
    pub(super) fn group(&self, round: i64) -> i64 {
        (round - self.first).div_euclid(self.width)
    }

    /// The rounds of group `g` on the x axis, `inset` of the group's width left off each side.
    pub(super) fn extent(&self, g: i64, inset: f64) -> (f64, f64) {
        let start = (self.first + g * self.width) as f64 - 0.5;
        let width = self.width as f64;
        (start + inset * width, start + (1.0 - inset) * width)
    }

    /// Lines through `(round, value)` points given in round order, broken where a round (or,
    /// grouped, a whole group) has no value: each group's lowest and highest value, at their
    /// rounds.
    pub(super) fn lines(
        &self,
        points: impl IntoIterator<Item = (i64, Option<f64>)>,
    ) -> Vec<Vec<(f64, f64)>> {
        if !self.thinned() {
            return segments(points);
        }
        let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
        let mut last_group = None;
        let mut open: Option<OpenGroup> = None;
        let mut close = |(g, low, high): OpenGroup| {
            let mut points = vec![low, high];
            points.sort_by_key(|&(round, _)| round);
            points.dedup_by_key(|&mut (round, _)| round);
            let points = points.into_iter().map(|(r, v)| (r as f64, v));
            match out.last_mut() {
                Some(line) if last_group == Some(g - 1) => line.extend(points),
                _ => out.push(points.collect()),
            }
            last_group = Some(g);
        };
        for (round, value) in points {
            let Some(value) = value else { continue };
            let g = self.group(round);
            match &mut open {
                Some((open_g, low, high)) if *open_g == g => {
                    if value < low.1 {
                        *low = (round, value);
                    }
                    if value > high.1 {
                        *high = (round, value);
                    }
                }
                _ => {
                    if let Some(done) = open.take() {
                        close(done);
                    }
                    open = Some((g, (round, value), (round, value)));
                }
            }
        }
        if let Some(done) = open {
            close(done);
        }
        out
    }
}

/// A group being read: its number, and its lowest and highest `(round, value)` point.
type OpenGroup = (i64, (i64, f64), (i64, f64));

/// Splits `(round, value)` points into runs of consecutive rounds with a value, so that lines
/// break where a round has no value instead of bridging it.
pub(super) fn segments(
    points: impl IntoIterator<Item = (i64, Option<f64>)>,
) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut last: Option<i64> = None;
    for (round, value) in points {
        match (value, out.last_mut()) {
            (Some(v), Some(segment)) if last == Some(round - 1) => segment.push((round as f64, v)),
            (Some(v), _) => out.push(vec![(round as f64, v)]),
            (None, _) => {}
        }
        last = value.map(|_| round);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_break_at_missing_values_and_missing_rounds() {
        let segs = segments([
            (1, Some(1.0)),
            (2, Some(2.0)),
            (3, None),
            (4, Some(4.0)),
            (6, Some(6.0)),
            (7, Some(7.0)),
        ]);
        assert_eq!(
            segs,
            vec![
                vec![(1.0, 1.0), (2.0, 2.0)],
                vec![(4.0, 4.0)],
                vec![(6.0, 6.0), (7.0, 7.0)],
            ]
        );
    }

    #[test]
    fn a_short_run_is_drawn_round_by_round_with_dots() {
        let one = Grouping::new(1, 300, MAX_GROUPS);
        assert_eq!((one.width, one.dots, one.thinned()), (1, true, false));
        assert!(!Grouping::new(1, 301, MAX_GROUPS).dots);
        assert_eq!(one.extent(4, 0.1), (4.6, 5.4));
        let points = [(1, Some(1.0)), (2, Some(5.0)), (4, Some(2.0))];
        assert_eq!(one.lines(points), segments(points));
    }

    #[test]
    fn a_long_run_keeps_each_groups_lowest_and_highest_value() {
        let grouping = Grouping::new(1, 200_000, MAX_GROUPS);
        assert_eq!(grouping.width, 134);
        assert!(grouping.thinned() && !grouping.dots);
        let spike = 77_777;
        let points =
            (1..=200_000).map(|r| (r, Some(if r == spike { 1e4 } else { (r % 7) as f64 })));
        let lines = grouping.lines(points);
        assert_eq!(lines.len(), 1, "no group is empty");
        let line = &lines[0];
        assert!(line.len() <= 2 * MAX_GROUPS as usize, "{}", line.len());
        assert!(line.contains(&(spike as f64, 1e4)), "the spike is kept");
        assert!(line.windows(2).all(|w| w[0].0 < w[1].0), "in round order");
        // A group without a value breaks the line; a lone group is one point or two.
        let gappy = [
            (1, Some(1.0)),
            (2, Some(3.0)),
            (500, Some(2.0)),
            (1000, None),
        ];
        let grouping = Grouping::new(1, 1000, 10);
        assert_eq!(grouping.width, 100);
        assert_eq!(
            grouping.lines(gappy),
            vec![vec![(1.0, 1.0), (2.0, 3.0)], vec![(500.0, 2.0)]]
        );
    }
}
