"""The edition (整理本): the whole conversion assembled, built into pages and exported as JSON."""
