"""Light and dark: the window's palette, style sheet, plot colours and status colours, and which one is on.

The scheme is TFDD_COLOR_SCHEME, else the View menu's choice, where "system" follows the desktop live. Every
colour the window paints lives here, once per scheme; panels ask `current()` and restyle on
`manager().changed`. Qt's Fusion style draws both schemes from a QPalette, alike on every platform;
resources/style.qss adds the accents through `$name` placeholders. Plot curves keep at least 3:1 contrast
with their background (WCAG's figure for graphics; tests/gui/test_theme.py).
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from enum import StrEnum
from string import Template

import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory, QWidget

from engine.core.resources import resource_path
from gui import settings

FADE = 0.55  # how far an area under a line (a stacked chart's band) is mixed towards the background


class Choice(StrEnum):
    """The View menu's colour scheme."""

    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


@dataclass(frozen=True)
class Tone:
    """A status shown as coloured text on a tinted cell (worker states, run statuses, problems)."""

    background: str
    foreground: str


@dataclass(frozen=True)
class UiColours:
    """The window's own colours (style sheet placeholders use these names)."""

    window: str
    panel: str
    border: str
    text: str
    muted: str
    title: str
    accent: str
    accent_hover: str
    accent_disabled: str
    accent_text: str
    button: str
    button_hover: str
    disabled_text: str
    disabled_button: str
    problem: str
    hint: str
    chunk: str
    note_background: str
    note_border: str
    log_background: str
    log_text: str
    log_border: str
    log_warning: str
    log_error: str
    log_folded: str
    log_raw: str
    log_selection: str
    # status tones: what a state means, not which state it is (panels map their states onto these)
    neutral: Tone
    waiting: Tone
    active: Tone
    good: Tone
    quiet: Tone
    bad: Tone
    other: Tone  # a task busy with something besides training (the evaluator)
    alarm: Tone  # lost, but the run goes on
    recovered: Tone


@dataclass(frozen=True)
class PlotPalette:
    """What the plots draw with. Curves keep at least 3:1 contrast against `background`."""

    background: str
    foreground: str  # axes, tick labels, titles
    grid: str
    legend_background: str
    legend_border: str
    batch: str  # raw per-batch values: lighter than the smoothed curve, still readable
    smoothed: str
    epoch: str
    validation: str
    ideal: str  # the scaling study's ideal line
    bar: str
    failed: str
    gpus: tuple[str, ...]  # per GPU, in order
    runs: tuple[str, ...]  # one per compared run
    anatomy: tuple[str, ...]  # a step's parts, in engine.core.anatomy.PARTS' order: input, compute, sync, rest

    def colour(self, role: str | tuple[str, int]) -> str:
        """The colour of a role: a field's name ("smoothed"), or (sequence, index) for ("gpus", 3)."""
        if isinstance(role, tuple):
            sequence = getattr(self, role[0])
            return sequence[role[1] % len(sequence)]
        return getattr(self, role)

    def curves(self) -> dict[str, str]:
        """Every colour drawn as data, by name (for the contrast test)."""
        named = {k: v for k, v in asdict(self).items() if isinstance(v, str)}
        for skip in ("background", "foreground", "grid", "legend_background", "legend_border"):
            named.pop(skip)
        named |= {f"gpu{i}": c for i, c in enumerate(self.gpus)} | {f"run{i}": c for i, c in enumerate(self.runs)}
        named |= {f"anatomy{i}": c for i, c in enumerate(self.anatomy)}
        return named


@dataclass(frozen=True)
class Theme:
    name: str  # "light" or "dark"
    ui: UiColours
    plot: PlotPalette

    @property
    def dark(self) -> bool:
        return self.name == Choice.DARK


LIGHT = Theme(
    Choice.LIGHT,
    UiColours(
        window="#f6f7f9",
        panel="#ffffff",
        border="#d5d9e0",
        text="#1f2328",
        muted="#5a6372",
        title="#1f3b57",
        accent="#1f6feb",
        accent_hover="#1a5fcc",
        accent_disabled="#9db8e6",
        accent_text="#ffffff",
        button="#ffffff",
        button_hover="#eef2f7",
        disabled_text="#9aa3ae",
        disabled_button="#f0f1f3",
        problem="#b00020",
        hint="#5a6372",
        chunk="#7fb2f0",
        note_background="#fff8e1",
        note_border="#f0d98a",
        log_background="#fbfbfc",
        log_text="#24292f",
        log_border="#d5d9e0",
        log_warning="#8a5a00",
        log_error="#b00020",
        log_folded="#0b5cad",
        log_raw="#6a737d",
        log_selection="#cfe0f7",
        neutral=Tone("#e8edf3", "#33414f"),
        waiting=Tone("#fff1cc", "#6b4e00"),
        active=Tone("#dbe9fb", "#0b4ea2"),
        good=Tone("#dcf2e3", "#146c2e"),
        quiet=Tone("#eceef1", "#4a5260"),
        bad=Tone("#fbdde0", "#9c0015"),
        other=Tone("#e6e0f8", "#4b2a9c"),
        alarm=Tone("#ffe2c6", "#8a3b00"),
        recovered=Tone("#d5f0f0", "#0b5e5e"),
    ),
    PlotPalette(
        background="#ffffff",
        foreground="#333333",
        grid="#d5d9e0",
        legend_background="#ffffffd2",
        legend_border="#d5d9e0",
        batch="#4a8cc7",
        smoothed="#08519c",
        epoch="#d95f02",
        validation="#1b7f5f",
        ideal="#1a7f37",
        bar="#4c78a8",
        failed="#b00020",
        gpus=("#7b3294", "#008837", "#b35806", "#2166ac", "#c51b7d", "#4d7a00", "#8c510a", "#01665e"),
        runs=(
            "#1f77b4",
            "#d62728",
            "#2ca02c",
            "#e6750f",
            "#9467bd",
            "#8c564b",
            "#d1479f",
            "#138a99",
            "#6f6f6f",
            "#8f8f16",
        ),
        anatomy=("#d95f02", "#2166ac", "#7b3294", "#6f6f6f"),
    ),
)

DARK = Theme(
    Choice.DARK,
    UiColours(
        window="#1e2125",
        panel="#26292e",
        border="#3a3f46",
        text="#e3e6ea",
        muted="#a0a8b3",
        title="#9cc4ff",
        accent="#2f74e0",
        accent_hover="#3b82f6",
        accent_disabled="#34496b",
        accent_text="#ffffff",
        button="#2e3238",
        button_hover="#383d44",
        disabled_text="#6b727c",
        disabled_button="#2a2d32",
        problem="#ff8a95",
        hint="#a0a8b3",
        chunk="#2f74e0",
        note_background="#3a3320",
        note_border="#6b5a26",
        log_background="#16181b",
        log_text="#d7dae0",
        log_border="#2b2d31",
        log_warning="#e5c07b",
        log_error="#ef7b84",
        log_folded="#8fb8de",
        log_raw="#8b919a",
        log_selection="#3a4a63",
        neutral=Tone("#2c333c", "#c9d3de"),
        waiting=Tone("#3d3418", "#f2d27a"),
        active=Tone("#1d3350", "#9cc4ff"),
        good=Tone("#1b3a27", "#7ee2a0"),
        quiet=Tone("#2c2f34", "#b4bac3"),
        bad=Tone("#4a1f25", "#ff9aa4"),
        other=Tone("#2f2a4a", "#c9b8ff"),
        alarm=Tone("#4a2e14", "#ffb36b"),
        recovered=Tone("#173a3a", "#7fe0e0"),
    ),
    PlotPalette(
        background="#1b1d21",
        foreground="#d0d4da",
        grid="#3a3f46",
        legend_background="#26292ed2",
        legend_border="#3a3f46",
        batch="#5f86ad",
        smoothed="#7cc0ff",
        epoch="#ff9a4d",
        validation="#4fd6a0",
        ideal="#5fd18b",
        bar="#6f9fd8",
        failed="#ff7b86",
        gpus=("#c39bd3", "#5fd18b", "#f2a65a", "#7fb3ff", "#ff7bb0", "#c8d65a", "#e0b070", "#4dd0c4"),
        runs=(
            "#5fa8ff",
            "#ff6b6b",
            "#5fd16b",
            "#ffa64d",
            "#b59bff",
            "#d09a80",
            "#ff8fd0",
            "#4dd0e1",
            "#b0b7c3",
            "#d8d86a",
        ),
        anatomy=("#ff9a4d", "#7fb3ff", "#c39bd3", "#b0b7c3"),
    ),
)

THEMES = {Choice.LIGHT: LIGHT, Choice.DARK: DARK}


class WidgetRole(StrEnum):
    """What a widget is, for the style sheet (resources/style.qss styles `[role="..."]`); see set_role."""

    PLAIN = ""
    HINT = "hint"  # an explanation beside a field or a table
    PROBLEM = "problem"  # what is wrong and what to do
    TITLE = "title"
    PRIMARY = "primary"  # the button that does the main thing
    NOTE = "note"  # a tinted box in either colour scheme


def set_role(widget: QWidget, role: WidgetRole) -> None:
    """Style `widget` as `role`. A widget Qt has polished already (shown) is polished again, so a change of
    role (a status turning into a problem) shows at once; one still being built is polished when shown."""
    widget.setProperty("role", role.value)
    if widget.testAttribute(Qt.WidgetAttribute.WA_WState_Polished):
        style = widget.style()
        style.unpolish(widget)
        style.polish(widget)


def desktop_scheme() -> Choice:
    """The desktop's scheme as Qt reports it (light when it does not say)."""
    hints = QGuiApplication.styleHints()
    return Choice.DARK if hints.colorScheme() == Qt.ColorScheme.Dark else Choice.LIGHT


ENV = "TFDD_COLOR_SCHEME"  # system, light or dark: overrides the stored choice (tests, screenshots)


def stored_choice() -> Choice:
    """TFDD_COLOR_SCHEME, else the View menu's stored choice, else "system"."""
    try:
        return Choice(os.environ.get(ENV) or settings.load_color_scheme() or Choice.SYSTEM)
    except ValueError:
        return Choice.SYSTEM


def palette(theme: Theme) -> QPalette:
    """Fusion's palette for `theme`: its standard one for light, ours for dark."""
    if not theme.dark:
        return QStyleFactory.create("Fusion").standardPalette()
    ui = theme.ui
    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: ui.window,
        QPalette.ColorRole.WindowText: ui.text,
        QPalette.ColorRole.Base: "#17191c",
        QPalette.ColorRole.AlternateBase: ui.panel,
        QPalette.ColorRole.ToolTipBase: ui.panel,
        QPalette.ColorRole.ToolTipText: ui.text,
        QPalette.ColorRole.PlaceholderText: ui.muted,
        QPalette.ColorRole.Text: ui.text,
        QPalette.ColorRole.Button: ui.button,
        QPalette.ColorRole.ButtonText: ui.text,
        QPalette.ColorRole.BrightText: "#ff6b6b",
        QPalette.ColorRole.Light: "#3a3f46",
        QPalette.ColorRole.Midlight: "#31353b",
        QPalette.ColorRole.Mid: "#2a2d32",
        QPalette.ColorRole.Dark: "#131518",
        QPalette.ColorRole.Shadow: "#000000",
        QPalette.ColorRole.Highlight: ui.accent,
        QPalette.ColorRole.HighlightedText: ui.accent_text,
        QPalette.ColorRole.Link: "#7cb4ff",
        QPalette.ColorRole.LinkVisited: "#c59bff",
    }
    for role, colour in roles.items():
        p.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(ui.disabled_text))
    return p


def style_sheet(theme: Theme) -> str:
    """resources/style.qss with the theme's colours in place of its `$name` placeholders."""
    path = resource_path("style.qss")
    if not path.is_file():
        return ""
    return Template(path.read_text(encoding="utf-8")).substitute(asdict(theme.ui))


def faded(colour: str, background: str, amount: float = FADE) -> QColor:
    """`colour` mixed with `background`, `amount` of the way to it, opaque: an area under its own line."""
    a, b = QColor(colour), QColor(background)
    return QColor.fromRgbF(*(x + amount * (y - x) for x, y in zip(a.getRgbF()[:3], b.getRgbF()[:3], strict=True)))


def style_plot(widget: pg.PlotWidget, theme: Theme) -> None:
    """Background, axes, tick labels, axis labels and legend of one plot in `theme`'s colours.

    Curves are the plot's owner's business (it knows which series is which);
    titles too when they carry their own markup (the live plots' legends)."""
    colours = theme.plot
    widget.setBackground(colours.background)
    item = widget.getPlotItem()
    for name in ("left", "bottom", "right", "top"):
        axis = item.getAxis(name)
        axis.setPen(colours.foreground)
        axis.setTextPen(colours.foreground)
        axis.labelStyle = {**axis.labelStyle, "color": colours.foreground}
        if axis.label.isVisible():
            axis.setLabel(axis.labelText, units=axis.labelUnits or None, unitPrefix=axis.labelUnitPrefix or None)
    item.titleLabel.opts["color"] = colours.foreground
    if item.titleLabel.text:
        item.titleLabel.setText(item.titleLabel.text)
    legend = item.legend
    if legend is not None:
        legend.setBrush(pg.mkBrush(QColor(colours.legend_background)))
        legend.setPen(pg.mkPen(colours.legend_border))
        legend.setLabelTextColor(colours.foreground)


class ThemeManager(QObject):
    """Knows the scheme in force, applies it to the application, and says when it changes."""

    changed = Signal(object)
    """The theme changed (argument: the new Theme); restyle what you painted yourself."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._app = app
        self.choice = stored_choice()
        self.theme = self._resolve()
        app.styleHints().colorSchemeChanged.connect(self._desktop_changed)

    def _resolve(self) -> Theme:
        return THEMES[desktop_scheme() if self.choice == Choice.SYSTEM else self.choice]

    def set_choice(self, choice: Choice) -> None:
        """The View menu's choice: stored, and applied at once."""
        self.choice = Choice(choice)
        settings.save_color_scheme(self.choice.value)
        self.refresh()

    def _desktop_changed(self, _scheme: Qt.ColorScheme) -> None:
        if self.choice == Choice.SYSTEM:
            self.refresh()

    def refresh(self) -> None:
        """Apply the theme the choice and the desktop give now; say so when it changed."""
        theme = self._resolve()
        if theme is not self.theme:
            self.theme = theme
            self.apply()
            self.changed.emit(theme)

    def apply(self) -> None:
        """Style, palette and style sheet of the application, and the colours new plots start with."""
        self._app.setStyle("Fusion")
        self._app.setPalette(palette(self.theme))
        self._app.setStyleSheet(style_sheet(self.theme))
        pg.setConfigOptions(background=self.theme.plot.background, foreground=self.theme.plot.foreground)


_manager: ThemeManager | None = None


def manager() -> ThemeManager:
    """The application's ThemeManager, created (and applied) on first use."""
    global _manager
    app = QApplication.instance()
    if _manager is None or _manager.parent() is not app:
        _manager = ThemeManager(app)
        _manager.apply()
    return _manager


def current() -> Theme:
    """The theme in force: what a panel paints with when it is built."""
    return manager().theme
