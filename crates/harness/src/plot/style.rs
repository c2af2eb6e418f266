//! The picture's font family and the colours its panels share.

use plotters::style::RGBColor;

/// The family name our drawing code asks for, and plotters' own default for legends and labels.
pub(super) const FAMILY: &str = "sans-serif";

/// A colour written as `0xRRGGBB`.
pub(super) const fn rgb(hex: u32) -> RGBColor {
    RGBColor((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

/// The learning curves, one colour per island (repeating after eight); red for a run without
/// islands, which has island 0 only.
pub(super) const ISLAND_COLOURS: [u32; 8] = [
    0xd62728, 0x1f77b4, 0x2ca02c, 0xff7f0e, 0x9467bd, 0x8c564b, 0xe377c2, 0x17becf,
];

/// `colour` moved towards white by `1 - share` (a faint line that stays opaque).
pub(super) fn faded(colour: RGBColor, share: f64) -> RGBColor {
    let fade = |c: u8| (255.0 - share * (255.0 - f64::from(c))).round() as u8;
    RGBColor(fade(colour.0), fade(colour.1), fade(colour.2))
}
