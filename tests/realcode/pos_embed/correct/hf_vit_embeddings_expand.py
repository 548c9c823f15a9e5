"""Hugging Face ViTEmbeddings.forward without interpolation or dropout: expand the class token, cat, add the position table.

Adapted from: huggingface/transformers, src/transformers/models/vit/modeling_vit.py (ViTEmbeddings.forward: cls_tokens = self.cls_token.expand(batch_size, -1, -1); embeddings = torch.cat((cls_tokens, embeddings), dim=1); embeddings = embeddings + self.position_embeddings), the contract's shape errors raised before; no dtype or type check (the original has none)
expect: accepted
"""
import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("embeddings, cls_token and position_embeddings are all 3-D")
    batch_size, seq_length, hidden_size = tokens.shape
    if cls_token.shape[0] != 1 or cls_token.shape[1] != 1 or cls_token.shape[2] != hidden_size:
        raise ValueError("cls_token must be (1, 1, hidden_size)")
    if pos_embedding.shape[0] != 1 or pos_embedding.shape[1] != seq_length + 1 or pos_embedding.shape[2] != hidden_size:
        raise ValueError("position_embeddings must be (1, seq_length + 1, hidden_size)")
    cls_tokens = cls_token.expand(batch_size, -1, -1)
    embeddings = torch.cat((cls_tokens, tokens), dim=1)
    return embeddings + pos_embedding
