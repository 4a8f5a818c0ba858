"""Output (输出): the LaTeX book and the HTML toolbar."""
