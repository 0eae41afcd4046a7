"""Find English words left in a translated window: every visible text a user can read or hear.

`english_texts(widget)` walks the widget and its visible children (labels,
buttons, check boxes, group box titles, window titles, tooltips, placeholder
texts, combo box items, table and tree headers and cells, menus and their
actions, tab titles, plot titles, axis labels and legends, accessible names
and descriptions) and returns the texts that still contain English words,
as "where: text". Names that stay as they are in any language are allowed:
API and product names (MirroredStrategy, TF_CONFIG, NCCL, TensorBoard),
units, file names, paths, numbers and identifiers with an underscore or a dot.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pyqtgraph as pg
from PySide6.QtCore import QAbstractItemModel, QAbstractListModel, QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QMenuBar,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QWidget,
)

# Names a Chinese user reads as they are: APIs, products, formats, units, and the values of config fields
# (a strategy is chosen by its config value, "mirrored", whichever the language of the window).
ALLOWED = set(
    """
    tensorflow keras tf tf_keras tensorboard nccl ring auto grpc nvml cuda qt mirroredstrategy
    multiworkermirroredstrategy onedevicestrategy parameterserverstrategy tpustrategy tf_config mnist kubeflow
    tfjob slurm sbatch kubernetes powershell bash python pyqtgraph pyside numpy adam sgd rmsprop adagrad relu
    softmax dense conv2d mlp cnn ema fit json csv npz tfrecord png svg jpeg jpg bmp gif yaml sh ps1 gpu gpus cpu
    cpus tpu id ip url utf ok pid stderr stdout mig readme english ssh nvidia linux windows xla avx float bfloat pip
    ctrl shift alt esc return enter tab
    mirrored multi_worker_mirrored one_device parameter_server custom chief worker ps evaluator linear synthetic
    images folder off data file default saved elu gelu selu sigmoid swish tanh error epoch warning
    ms s min h kb mb gb gib mib kib tb px pt hz k m x e n
    """.split()  # noqa: SIM905 - a word list reads better as words than as 150 quoted lines
)
ALLOWED_PHRASES = ("all-reduce", "tensorboard-plugin-profile")  # a package name is a name
WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
TAG = re.compile(r"<[^>]+>")
# file names, paths, dotted or underscored identifiers, flags, addresses: not words
NOT_PROSE = re.compile(r"\S*[/\\_.:@=]\S*|--?\w[\w-]*|\$\w+|%\w")


def english_words(text: str, allowed: set[str] = frozenset()) -> list[str]:
    """The English words of `text` that are not names every language uses as they are."""
    plain = html.unescape(TAG.sub(" ", text))
    plain = re.sub(r"&(?=\w)", "", plain)  # "&Start" is a mnemonic, not a word break
    for phrase in ALLOWED_PHRASES:
        plain = plain.replace(phrase, " ")
    plain = NOT_PROSE.sub(" ", plain)
    words = []
    for word in WORD.findall(plain):
        lower = word.lower().strip("'’")
        if lower in ALLOWED or lower in allowed or _camel_case_name(word) or word.isupper() and len(word) <= 5:
            continue
        words.append(word)
    return words


def _camel_case_name(word: str) -> bool:
    """MirroredStrategy, BackupAndRestore: identifiers, not prose."""
    return bool(re.fullmatch(r"[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+", word))


def _columns(model: QAbstractItemModel, parent: QModelIndex) -> int:
    """Columns under `parent` (a list model's columnCount is private in the bindings: it has one)."""
    return 1 if isinstance(model, QAbstractListModel) else model.columnCount(parent)


def _model_texts(model: QAbstractItemModel, where: str, parent: QModelIndex | None = None) -> Iterator[tuple]:
    parent = QModelIndex() if parent is None else parent
    if not parent.isValid():
        horizontal = Qt.Orientation.Horizontal
        for section in range(_columns(model, parent)):
            yield f"{where} header", model.headerData(section, horizontal, Qt.ItemDataRole.DisplayRole)
            yield f"{where} header tooltip", model.headerData(section, horizontal, Qt.ItemDataRole.ToolTipRole)
    for row in range(model.rowCount(parent)):
        for column in range(_columns(model, parent)):
            index = model.index(row, column, parent)
            yield f"{where} cell", index.data(Qt.ItemDataRole.DisplayRole)
            yield f"{where} cell tooltip", index.data(Qt.ItemDataRole.ToolTipRole)
            if (
                column == 0
                and not isinstance(model, QAbstractListModel | QAbstractTableModel)
                and model.hasChildren(index)
            ):
                yield from _model_texts(model, where, index)


def _menu_texts(menu: QMenu, where: str) -> Iterator[tuple]:
    yield f"{where} menu", menu.title()
    for action in menu.actions():
        if action.menu():
            yield from _menu_texts(action.menu(), f"{where} > {menu.title()}")
        elif not action.isSeparator():
            yield f"{where} > {menu.title()} action", action.text()
            yield (
                f"{where} > {menu.title()} tooltip",
                action.toolTip() if action.toolTip() != action.text().replace("&", "") else "",
            )
            yield f"{where} > {menu.title()} status tip", action.statusTip()


def _plot_texts(plot: pg.PlotWidget, where: str) -> Iterator[tuple]:
    item = plot.getPlotItem()
    yield f"{where} plot title", item.titleLabel.text
    for name in ("left", "bottom", "right", "top"):
        axis = item.getAxis(name)
        if axis.isVisible() and axis.label.isVisible():
            yield f"{where} axis {name}", axis.labelText
    if item.legend is not None:
        for _sample, label in item.legend.items:
            yield f"{where} legend", label.text


# views whose rows are program output or the user's data, not the window's words (the trainer's log)
DATA_VIEWS = {"logView"}


def visible_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) for every text a user of `root` can read or hear (rows of DATA_VIEWS excepted)."""
    widgets = [root, *root.findChildren(QWidget)]
    for w in widgets:
        if not w.isVisibleTo(root) and w is not root and not isinstance(w, QMenu):
            continue
        where = f"{type(w).__name__}({w.objectName() or '-'})"
        if w.isWindow():
            yield f"{where} window title", w.windowTitle()
        yield f"{where} tooltip", w.toolTip()
        yield f"{where} accessible name", w.accessibleName()
        yield f"{where} accessible description", w.accessibleDescription()
        yield f"{where} status tip", w.statusTip()
        yield f"{where} whats this", w.whatsThis()
        if isinstance(w, QLabel | QAbstractButton):
            yield f"{where} text", w.text()
        elif isinstance(w, QGroupBox):
            yield f"{where} title", w.title()
        elif isinstance(w, QLineEdit | QPlainTextEdit | QTextEdit):
            yield f"{where} placeholder", w.placeholderText()
        elif isinstance(w, QComboBox):
            for i in range(w.count()):
                yield f"{where} item", w.itemText(i)
                yield f"{where} item tooltip", w.itemData(i, Qt.ItemDataRole.ToolTipRole)
        elif isinstance(w, QTabWidget):
            for i in range(w.count()):
                yield f"{where} tab", w.tabText(i)
                yield f"{where} tab tooltip", w.tabToolTip(i)
        elif isinstance(w, QMenuBar):
            for action in w.actions():
                if action.menu():
                    yield from _menu_texts(action.menu(), where)
        elif isinstance(w, QAbstractItemView) and w.model() is not None and w.objectName() not in DATA_VIEWS:
            yield from _model_texts(w.model(), where)
        elif isinstance(w, pg.PlotWidget):
            yield from _plot_texts(w, where)
        if hasattr(w, "suffix") and callable(w.suffix):  # spin boxes
            yield f"{where} suffix", w.suffix()
            yield f"{where} special value", w.specialValueText()


def english_texts(root: QWidget, allowed: set[str] = frozenset()) -> list[str]:
    """Every visible text of `root` that still has English words, as "where: text" (empty: all translated)."""
    found = []
    for where, text in visible_texts(root):
        if isinstance(text, str) and text.strip() and english_words(text, allowed):
            found.append(f"{where}: {text!r}")
    return sorted(set(found))


def shown_texts(widget: QWidget, qtbot, allowed: set[str] = frozenset()) -> list[str]:
    """`widget` shown and painted, then its texts that still have English words (see english_texts)."""
    widget.show()
    qtbot.waitExposed(widget)
    QApplication.processEvents()
    return english_texts(widget, allowed)
