"""Say a status change to screen readers, not only paint it.

A run that starts, finishes or fails changes a label somewhere; a screen
reader user is not looking at it. Qt 6.8 added QAccessibleAnnouncementEvent,
which asks the platform's accessibility layer (AT-SPI, UI Automation,
NSAccessibility) to speak a message. Failures interrupt what is being read
(assertive); the rest wait their turn (polite).
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent


def announce(source: QObject, message: str, *, urgent: bool = False) -> QAccessibleAnnouncementEvent:
    """Ask screen readers to say `message` on behalf of `source`; returns the event sent."""
    event = QAccessibleAnnouncementEvent(source, message)
    politeness = QAccessible.AnnouncementPoliteness
    event.setPoliteness(politeness.Assertive if urgent else politeness.Polite)
    QAccessible.updateAccessibility(event)
    return event
