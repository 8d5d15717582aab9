"""HIDDEN: ground truth shared between exercises, computed from real libraries or real
measurements, never copied from a reference answer. One module per thing computed."""
