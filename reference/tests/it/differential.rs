//! The fast rules against the plain references on 10,000 positions each, from random playouts
//! (see `kingme_reference::differential`). The example `differential` runs a million.

use kingme_reference::differential;

#[test]
fn checkers_bitboards_agree_with_the_plain_board_on_10000_positions() {
    let report = differential::checkers(0x6b69_6e67, 10_000).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(report.positions, 10_000);
    // The playouts must reach what makes checkers hard, or agreeing would prove little.
    assert!(report.capture_positions > 1_000, "{report:?}");
    assert!(report.multi_jumps > 50, "{report:?}");
    assert!(report.king_positions > 1_000, "{report:?}");
    assert!(report.lost_positions > 0, "{report:?}");
}

#[test]
fn pente_bitboards_agree_with_the_plain_board_on_10000_positions() {
    let report = differential::pente(0x7065_6e74, 10_000).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(report.positions, 10_000);
    assert!(report.capturing_moves > 1_000, "{report:?}");
    assert!(report.fives > 0 && report.capture_wins > 0, "{report:?}");
}
