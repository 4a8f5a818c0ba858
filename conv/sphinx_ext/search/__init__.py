"""Search (检索): the search language ``lzh`` for classical Chinese, folding variants as the text does."""
