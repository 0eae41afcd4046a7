"""Light and dark: contrast of every plot colour, the style sheet, and following the menu and the desktop."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from gui import theme
from gui.theme import DARK, LIGHT, Choice, Theme

MIN_CONTRAST = 3.0  # WCAG 2.1's minimum for graphical objects against what they sit on


def luminance(colour: str) -> float:
    c = QColor(colour)

    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula_matches_wcag_examples() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("scheme", [LIGHT, DARK], ids=["light", "dark"])
def test_every_plot_colour_stands_out_from_its_background(scheme: Theme) -> None:
    p = scheme.plot
    low = {name: round(contrast(c, p.background), 2) for name, c in p.curves().items()}
    assert {n: r for n, r in low.items() if r < MIN_CONTRAST} == {}
    assert contrast(p.foreground, p.background) >= 4.5  # axis and tick text is text


@pytest.mark.parametrize("scheme", [LIGHT, DARK], ids=["light", "dark"])
def test_text_of_every_status_tone_and_the_log_is_readable(scheme: Theme) -> None:
    ui = scheme.ui
    for tone in (ui.neutral, ui.waiting, ui.active, ui.good, ui.quiet, ui.bad):
        assert contrast(tone.foreground, tone.background) >= 4.5, tone
    for colour in (ui.log_text, ui.log_warning, ui.log_error, ui.log_folded, ui.log_raw):
        assert contrast(colour, ui.log_background) >= 4.5, colour
    assert contrast(ui.problem, ui.panel) >= 4.5 and contrast(ui.text, ui.window) >= 4.5


def test_dark_and_light_plots_differ_where_it_matters() -> None:
    assert luminance(DARK.plot.background) < 0.05 < 0.9 < luminance(LIGHT.plot.background)
    assert len(DARK.plot.runs) == len(LIGHT.plot.runs) and len(DARK.plot.gpus) == len(LIGHT.plot.gpus)


@pytest.mark.parametrize("scheme", [LIGHT, DARK], ids=["light", "dark"])
def test_the_style_sheet_gets_every_placeholder_filled(scheme: Theme) -> None:
    sheet = theme.style_sheet(scheme)
    assert "$" not in sheet and scheme.ui.window in sheet and scheme.ui.problem in sheet


@pytest.fixture
def fresh_manager(qapp: QApplication, monkeypatch: pytest.MonkeyPatch):
    """A ThemeManager of its own, with the desktop's scheme under the test's control."""
    desktop = {"scheme": Choice.LIGHT}
    monkeypatch.delenv(theme.ENV, raising=False)
    monkeypatch.setattr(theme, "desktop_scheme", lambda: desktop["scheme"])
    manager = theme.ThemeManager(qapp)
    monkeypatch.setattr(theme, "_manager", manager)
    yield manager, desktop
    manager.set_choice(Choice.LIGHT)
    manager.deleteLater()


def test_the_view_menu_choice_applies_at_once_and_is_remembered(qtbot, fresh_manager) -> None:
    manager, _ = fresh_manager
    manager.apply()
    with qtbot.waitSignal(manager.changed, timeout=1000) as changed:
        manager.set_choice(Choice.DARK)
    assert changed.args == [DARK] and theme.current() is DARK
    app = QApplication.instance()
    assert app.palette().color(QPalette.ColorRole.Window) == QColor(DARK.ui.window)
    assert DARK.ui.window in app.styleSheet()
    assert pg.getConfigOption("background") == DARK.plot.background
    assert theme.stored_choice() == Choice.DARK


def test_system_follows_the_desktop_live(qtbot, fresh_manager) -> None:
    manager, desktop = fresh_manager
    manager.set_choice(Choice.SYSTEM)
    assert manager.theme is LIGHT
    desktop["scheme"] = Choice.DARK
    with qtbot.waitSignal(manager.changed, timeout=1000):
        QApplication.instance().styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert manager.theme is DARK
    manager.set_choice(Choice.LIGHT)  # an explicit choice overrides the desktop
    desktop["scheme"] = Choice.DARK
    QApplication.instance().styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert manager.theme is LIGHT


def test_the_environment_overrides_the_stored_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    from gui import settings

    settings.save_color_scheme("light")
    monkeypatch.setenv(theme.ENV, "dark")
    assert theme.stored_choice() == Choice.DARK
    monkeypatch.setenv(theme.ENV, "purple")
    assert theme.stored_choice() == Choice.SYSTEM


@pytest.mark.parametrize("scheme", [LIGHT, DARK], ids=["light", "dark"])
def test_style_plot_paints_background_axes_and_legend(qtbot, scheme: Theme) -> None:
    widget = pg.PlotWidget(title="Loss")
    qtbot.addWidget(widget)
    item = widget.getPlotItem()
    item.setLabel("left", "loss")
    legend = item.addLegend()
    item.plot([0, 1], [1, 0], name="loss")
    theme.style_plot(widget, scheme)
    assert widget.backgroundBrush().color() == QColor(scheme.plot.background)
    axis = item.getAxis("left")
    assert axis.pen().color() == QColor(scheme.plot.foreground)
    assert axis.textPen().color() == QColor(scheme.plot.foreground)
    assert scheme.plot.foreground in axis.label.toHtml() or QColor(scheme.plot.foreground).name() in axis.label.toHtml()
    assert legend.brush().color().rgb() == QColor(scheme.plot.legend_background).rgb()
    assert legend.labelTextColor() == QColor(scheme.plot.foreground)


def test_the_window_follows_a_switch_live(qtbot, make_window, fresh_manager) -> None:
    """Plots, log, runs table and workers panel are repainted in the new scheme without a restart."""
    from PySide6.QtWidgets import QApplication

    manager, _ = fresh_manager
    manager.set_choice(Choice.LIGHT)
    window = make_window()
    window.show()
    plots = [window.plots.loss, window.plots.accuracy, window.plots.throughput, *window.runs.compare.plots.values()]
    assert {p.backgroundBrush().color().name() for p in plots} == {LIGHT.plot.background}
    manager.set_choice(Choice.DARK)
    QApplication.processEvents()
    assert {p.backgroundBrush().color().name() for p in plots} == {DARK.plot.background}
    loss = window.plots.loss
    assert loss.getPlotItem().getAxis("left").pen().color().name() == DARK.plot.foreground
    assert loss.layer.looks["smoothed"].pen.color().name() == DARK.plot.smoothed
    assert DARK.plot.smoothed in loss.getPlotItem().titleLabel.text  # the legend in the title, recoloured
    assert window.log.model._raw_colour.name() == DARK.ui.log_raw
    assert QApplication.instance().palette().color(QPalette.ColorRole.Window).name() == DARK.ui.window
