"""The model (模型): work → chapter → section → passage → segments → glosses, and conservation."""
