"""MyST output (页面): the generated page format, the chapter pages and the back matter."""
