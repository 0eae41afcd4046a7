"""keras_application: tf_keras.applications.`name`, with random weights or a local weights file (never
downloaded)."""

from __future__ import annotations

from engine.core.messages import msg
from engine.core.model_kinds.base import ModelConfig, ModelKind
from engine.core.problems import Problem
from engine.core.user_code import file_problem

# tf_keras.applications, by name (tests/engine/train/test_models.py checks the list against tf_keras itself)
KERAS_APPLICATIONS = (
    *(f"ConvNeXt{s}" for s in ("Tiny", "Small", "Base", "Large", "XLarge")),
    "DenseNet121",
    "DenseNet169",
    "DenseNet201",
    *(f"EfficientNetB{i}" for i in range(8)),
    *(f"EfficientNetV2{s}" for s in ("B0", "B1", "B2", "B3", "S", "M", "L")),
    "InceptionResNetV2",
    "InceptionV3",
    "MobileNet",
    "MobileNetV2",
    "MobileNetV3Small",
    "MobileNetV3Large",
    "NASNetMobile",
    "NASNetLarge",
    *(f"RegNet{xy}{n}" for xy in "XY" for n in ("002", "004", "006", "008", "016", "032", "040", "064", "080")),
    *(f"RegNet{xy}{n}" for xy in "XY" for n in ("120", "160", "320")),
    "ResNet50",
    "ResNet101",
    "ResNet152",
    "ResNet50V2",
    "ResNet101V2",
    "ResNet152V2",
    *(f"ResNetRS{n}" for n in (50, 101, 152, 200, 270, 350, 420)),
    "VGG16",
    "VGG19",
    "Xception",
)


def check(model: ModelConfig) -> list[Problem]:
    p: list[Problem] = []
    if model.name not in KERAS_APPLICATIONS:
        close = [n for n in KERAS_APPLICATIONS if n.lower().startswith(str(model.name)[:5].lower())]
        hint = f"; did you mean {', '.join(close[:4])}?" if close else "; e.g. MobileNetV2, ResNet50, EfficientNetB0"
        p.append(
            Problem("model.name", model.name, msg("not an architecture of tf_keras.applications{hint}", hint=hint))
        )
    if model.weights is not None:
        problem = file_problem("model.weights", model.weights, msg("a weights file (.h5) saved on this machine"))
        if problem:
            p.append(problem)
    return p


KIND = ModelKind(
    name="keras_application",
    hint=msg("an architecture of tf_keras.applications, random or local weights (never downloaded)"),
    fields=("name", "weights"),
    check=check,
    shared=("weights",),
)
