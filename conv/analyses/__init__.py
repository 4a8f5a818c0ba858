"""Analyses (分析) of the model: terms (名物), 今古文 readings (异文), 郑注 训诂 (glossary)."""
