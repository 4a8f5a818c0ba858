"""Parsers (解析): a read witness → the model; segments, 音义 glosses, 广韵 phonology, corrections."""
