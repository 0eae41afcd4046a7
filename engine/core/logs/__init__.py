"""What a run prints, made readable: TensorFlow's chatter folded, events as log lines, stacks and stalls."""
