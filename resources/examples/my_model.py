"""An example model file for `"model": {"kind": "python", "path": "my_model.py"}`.

The contract: build_model(input_shape, num_classes) is called inside strategy.scope() and returns an
uncompiled tf_keras model whose output is (batch, num_classes) logits, or (batch, 1) for two classes.
Ending in softmax/sigmoid also works: the dashboard detects it and the loss takes probabilities.
Use BatchNormalization(synchronized=True): 1 and N replicas then train the same model.
"""

import tf_keras as keras


def build_model(input_shape, num_classes):
    inputs = keras.Input(shape=input_shape)
    x = inputs
    for filters in (32, 64):
        x = keras.layers.Conv2D(filters, 3, padding="same", use_bias=False)(x)
        x = keras.layers.BatchNormalization(synchronized=True)(x)
        x = keras.layers.Activation("relu")(x)
        x = keras.layers.MaxPooling2D()(x)
    x = keras.layers.GlobalAveragePooling2D()(x)
    outputs = keras.layers.Dense(1 if num_classes == 2 else num_classes)(x)
    return keras.Model(inputs, outputs, name="my_model")
