"""The data preview under the data source: what a run would train on, before Start.

Example count, input shape, classes with their counts and, for an image
folder, a strip of thumbnails read with Qt (QImageReader scales while it
decodes, so a large photo costs little). The numbers come from
`engine.core.sources.inspect(quick=True)`: a bounded sample, no TensorFlow, no
user code, fast enough to run as the user types; the trainer reads
everything again before it starts.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSize, Qt
from PySide6.QtGui import QImageReader, QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QVBoxLayout, QWidget

from engine.core.sources import SourceInfo
from gui.form.rows import hint_label
from gui.i18n import translate

THUMBNAIL_PX = 44
MAX_CLASSES_SHOWN = 8


def thumbnail(path: str, size: int = THUMBNAIL_PX) -> QPixmap | None:
    """The image scaled to fit size x size, decoded at that size; None when Qt cannot read it."""
    reader = QImageReader(path)
    original = reader.size()
    if original.isValid() and original.width() > 0 and original.height() > 0:
        reader.setScaledSize(original.scaled(QSize(size, size), Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    return None if image.isNull() else QPixmap.fromImage(image)


def class_summary(info: SourceInfo) -> str:
    """ "cats 120 · dogs 98 · …" (the first classes, then how many more)."""
    names = info.class_names or tuple(str(i) for i in range(info.num_classes))
    counts = info.class_counts or ()
    parts = [f"{name}\u00a0{counts[i]:,}" if i < len(counts) else name for i, name in enumerate(names)]
    more = len(parts) - MAX_CLASSES_SHOWN
    shown = " · ".join(parts[:MAX_CLASSES_SHOWN])
    return shown + (QCoreApplication.translate("DataPreview", " · … %n more", "", more) if more > 0 else "")


class Thumbnail(QWidget):
    """One image, drawn in its colours even while the form is disabled during a run (a QLabel would grey it)."""

    def __init__(self, pixmap: QPixmap | None, path: str) -> None:
        super().__init__(objectName="thumbnail")
        self.pixmap = pixmap
        self.setFixedSize(THUMBNAIL_PX, THUMBNAIL_PX)
        self.setToolTip(path)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        if self.pixmap is None:
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "?")
            return
        x = (self.width() - self.pixmap.width()) // 2
        y = (self.height() - self.pixmap.height()) // 2
        painter.drawPixmap(x, y, self.pixmap)


class DataPreview(QWidget):
    """Shows a SourceInfo (or nothing, while the source has a problem)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dataPreview")
        self.summary = hint_label("previewSummary")
        self.classes = hint_label("previewClasses")
        self.strip = QWidget(objectName="thumbnailStrip")
        self.strip_layout = QGridLayout(self.strip)
        self.strip_layout.setContentsMargins(0, 2, 0, 0)
        self.strip_layout.setSpacing(3)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.summary)
        column.addWidget(self.classes)
        row = QHBoxLayout()
        row.addWidget(self.strip)
        row.addStretch(1)
        column.addLayout(row)
        self.thumbnails: list[Thumbnail] = []
        self.show_info(None)

    def show_info(self, info: SourceInfo | None) -> None:
        for label in self.thumbnails:
            label.deleteLater()
        self.thumbnails = []
        self.setVisible(info is not None)
        if info is None:
            return
        later = self.tr("known when the run starts")
        count = later if info.examples is None else f"{info.examples:,}"
        approx = "≈ " if info.examples_estimated else ""
        shape = later if info.input_shape is None else "×".join(map(str, info.input_shape))
        several = len(info.file_examples) > 1  # a source of several files, each of its own examples
        files = self.tr(" · %n files", "", len(info.files)) if several else ""
        self.summary.setText(
            self.tr("Preview: {approx}{count} examples · input {shape} · {classes} classes{files}").format(
                approx=approx, count=count, shape=shape, classes=info.num_classes, files=files
            )
            + "".join(f"\n{translate(note)}" for note in info.notes)
        )
        self.classes.setText(
            self.tr("Classes: {classes}").format(classes=class_summary(info)) if info.classes_known else ""
        )
        self.classes.setVisible(info.classes_known)
        for i, path in enumerate(info.thumbnails()):
            label = Thumbnail(thumbnail(path), path)
            self.strip_layout.addWidget(label, i // 6, i % 6)
            self.thumbnails.append(label)
        self.strip.setVisible(bool(self.thumbnails))
