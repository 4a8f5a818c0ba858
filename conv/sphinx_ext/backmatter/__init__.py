"""Back matter (附录): apparatus entries (校勘记), data tables, the index of terms (名物索引)."""
