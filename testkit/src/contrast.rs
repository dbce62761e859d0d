//! WCAG 2.x contrast between two colours, for the tests that check pieces and marks stand out
//! from what they are drawn on (the terminal's themes and the web page's style sheet): one
//! formula for both. (The testkit builds no tests of its own: the client's theme test
//! `ratios_match_wcag_examples` checks this formula against WCAG's examples.)

/// The relative luminance of an sRGB colour (red, green, blue), 0 (black) to 1 (white).
#[must_use]
pub fn relative_luminance([red, green, blue]: [u8; 3]) -> f64 {
    let linear = |channel: u8| {
        let c = f64::from(channel) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
}

/// The contrast ratio of two colours, 1 (the same) to 21 (black on white).
#[must_use]
pub fn contrast_ratio(one: [u8; 3], other: [u8; 3]) -> f64 {
    let (one, other) = (relative_luminance(one), relative_luminance(other));
    (one.max(other) + 0.05) / (one.min(other) + 0.05)
}
