"""Real pieces of the 通解's transcription lines (通解录入本之片段) — 经, notes in parentheses, 音义 and
疏曰/今按 heads outside them — which the property tests of the tokens' rewrite draw lines from
(``test_tongjie_witness.py``, ``test_gloss_cuts.py``)."""
from __future__ import annotations

PIECES = ["鄉飲酒之禮", "謀賓介", "介音界", "(主人謂諸侯之鄉大夫也)", "(疏曰處士者)", "疏曰凡設尊之法",
          "知音智行下孟反", "今按學成", "(民此士之素所有志也)", "主人退", "○○", "(長丁丈反)", "長丁丈反"]
