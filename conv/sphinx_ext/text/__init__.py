"""The text of the edition (正文): passages, commentary segments, titles, metadata, characters and glosses."""
