"""MiniLM's weight products in int8: the packaged model, rewritten in memory when it loads.

The packaged model stores each weight matrix as int8 with one scale per output column,
and onnxruntime turns it back into float at load, so 36 float matrix products took
three quarters of the embedding time. This module rewrites the graph so that those
products run on integers:

- each activation row (one token) is scaled by its own largest magnitude and rounded
  to 8 bits (``QuantizeLinear`` per row, zero point 128), once per distinct input, so
  the query, key and value products share one quantisation;
- ``MatMulInteger`` (as onnxruntime's ``MatMulIntegerToFloat``) multiplies it by the
  model's own int8 weights, exactly, and the row and column scales bring it back to float.

Because every scale belongs to one token, a text's vector does not depend on the texts
batched or padded with it, and integer sums are exact, so a text gets the same vector
alone or in any batch. The attention's NaN guard (``Where(IsNaN(softmax), 0, softmax)``,
left by the exporter for rows with every key masked, which our inputs never have: the
[CLS] token is always real) is removed as well; it was a tenth of the time.

On the 4,350 chunks of the generated vault the embedding takes about 0.56 of the CPU
of the float products (0.37 of the base's in the same runs, against 0.66 for float;
docs/benchmarks.md, "Cold indexing"), and retrieval on LoCoMo and the typing PEPs is
within a few questions of float ("Retrieval with int8 vectors"). On x86 without VNNI
onnxruntime's kernel saturates pairs of products at 16 bits, which costs a little
fidelity (mean cosine to the reference model 0.9949 instead of 0.9962); 7-bit
activations, which would avoid it, cost more than they save.

The model is a protobuf; rather than depend on the ``onnx`` package (31 MB, a second of
import) for one rewrite of one pinned file, the few fields touched are read and written
here, and the result is checked against a pinned sha256 like the input it came from.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from mnemex.errors import EmbedderError

# Wire types of the protobuf encoding.
_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5
# ONNX TensorProto data types and AttributeProto types used here.
_FLOAT, _UINT8, _INT8, _INT64 = 1, 2, 3, 7
_ATTR_INT, _ATTR_INTS = 2, 7

Field = tuple[int, int, bytes | int]


def _read_varint(buf: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # int64 two's complement, as protobuf writes negative numbers
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def _fields(buf: bytes) -> Iterator[Field]:
    """The fields of one message, in order: (number, wire type, bytes or int)."""
    pos = 0
    while pos < len(buf):
        key, pos = _read_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == _VARINT:
            value, pos = _read_varint(buf, pos)
            yield number, wire, value
        elif wire == _LEN:
            size, pos = _read_varint(buf, pos)
            yield number, wire, buf[pos : pos + size]
            pos += size
        elif wire in (_I64, _I32):
            size = 8 if wire == _I64 else 4
            yield number, wire, buf[pos : pos + size]
            pos += size
        else:
            raise EmbedderError(f"the model file has an unknown protobuf wire type {wire}")


def _encode(fields: Iterable[Field]) -> bytes:
    out = bytearray()
    for number, wire, value in fields:
        out += _varint(number << 3 | wire)
        if wire == _VARINT:
            assert isinstance(value, int)
            out += _varint(value)
        else:
            assert isinstance(value, bytes)
            if wire == _LEN:
                out += _varint(len(value))
            out += value
    return bytes(out)


def _text(value: str) -> bytes:
    return value.encode()


@dataclass
class _Node:
    op: str
    inputs: list[str]
    outputs: list[str]
    rest: list[Field] = field(default_factory=list)  # name, domain, attributes: kept as read

    @classmethod
    def parse(cls, buf: bytes) -> _Node:
        node = cls("", [], [])
        for number, wire, value in _fields(buf):
            if number == 1 and isinstance(value, bytes):
                node.inputs.append(value.decode())
            elif number == 2 and isinstance(value, bytes):
                node.outputs.append(value.decode())
            elif number == 4 and isinstance(value, bytes):
                node.op = value.decode()
            else:
                node.rest.append((number, wire, value))
        return node

    def encode(self) -> bytes:
        head: list[Field] = [(1, _LEN, _text(i)) for i in self.inputs]
        head += [(2, _LEN, _text(o)) for o in self.outputs]
        head.append((4, _LEN, _text(self.op)))
        return _encode(head + self.rest)


def _make(
    op: str, inputs: list[str], outputs: list[str], domain: str = "", **attrs: object
) -> _Node:
    rest: list[Field] = []
    if domain:
        rest.append((7, _LEN, _text(domain)))
    for name, value in attrs.items():
        attr: list[Field] = [(1, _LEN, _text(name))]
        if isinstance(value, int):
            attr += [(3, _VARINT, value), (20, _VARINT, _ATTR_INT)]
        else:
            assert isinstance(value, list)
            attr += [(8, _VARINT, v) for v in value]
            attr.append((20, _VARINT, _ATTR_INTS))
        rest.append((5, _LEN, _encode(attr)))
    return _Node(op, inputs, outputs, rest)


def _tensor(name: str, kind: int, dims: list[int], raw: bytes) -> bytes:
    fields: list[Field] = [(1, _VARINT, d) for d in dims]
    fields += [(2, _VARINT, kind), (8, _LEN, _text(name)), (9, _LEN, raw)]
    return _encode(fields)


def _tensor_head(buf: bytes) -> tuple[str, int, list[int]]:
    """Name, data type and dims of a TensorProto (its data is not read)."""
    name, kind, dims = "", 0, []
    for number, _, value in _fields(buf):
        if number == 1 and isinstance(value, int):
            dims.append(_signed(value))
        elif number == 2 and isinstance(value, int):
            kind = value
        elif number == 8 and isinstance(value, bytes):
            name = value.decode()
    return name, kind, dims


_CONSTANTS = [
    _tensor("int8_zero_point", _UINT8, [], bytes([128])),
    _tensor("int8_one", _FLOAT, [], struct.pack("<f", 1.0)),
    _tensor("int8_per_step", _FLOAT, [], struct.pack("<f", 1.0 / 127.0)),
    _tensor("int8_tiny", _FLOAT, [], struct.pack("<f", 1e-12)),
    _tensor("int8_flat", _INT64, [1], struct.pack("<q", -1)),
    _tensor("int8_axis1", _INT64, [1], struct.pack("<q", 1)),
]


def rewrite(model: bytes) -> bytes:
    """The packaged MiniLM with int8 weight products and no NaN guard (see the module)."""
    top = list(_fields(model))
    graph_at = [i for i, (number, wire, _) in enumerate(top) if number == 7 and wire == _LEN]
    if len(graph_at) != 1:
        raise EmbedderError("the model file has no single graph")
    graph_bytes = top[graph_at[0]][2]
    assert isinstance(graph_bytes, bytes)
    graph = list(_fields(graph_bytes))
    nodes = [_Node.parse(v) for n, _, v in graph if n == 1 and isinstance(v, bytes)]
    others = [f for f in graph if f[0] != 1]
    tensors = {}
    for number, _, value in others:
        if number == 5 and isinstance(value, bytes):
            name, kind, dims = _tensor_head(value)
            tensors[name] = (kind, dims)
    made = {o: n for n in nodes for o in n.outputs}
    rename: dict[str, str] = {}
    dropped: set[int] = set()
    for n in nodes:
        if n.op == "IsNaN":
            (guard,) = [w for w in nodes if n.outputs[0] in w.inputs]
            if guard.op != "Where" or guard.inputs[2] != n.inputs[0]:
                raise EmbedderError("the model's attention is not the shape this rewrite knows")
            rename[guard.outputs[0]] = n.inputs[0]
            dropped.update((id(n), id(guard)))
    width = {"int8_flat"}  # reshape targets made so far, by inner width
    out: list[_Node] = []
    extra: list[bytes] = list(_CONSTANTS)
    rows: dict[str, tuple[str, str]] = {}
    products = 0
    for n in nodes:
        if id(n) in dropped:
            continue
        n.inputs = [rename.get(i, i) for i in n.inputs]
        weight = _int8_weight(n, made, tensors)
        if weight is None:
            out.append(n)
            continue
        q, scale, inner = weight
        x, (y,) = n.inputs[0], n.outputs
        if x not in rows:
            p = f"int8_row{len(rows)}_"
            shape = f"int8_shape_{inner}"
            if shape not in width:
                width.add(shape)
                extra.append(_tensor(shape, _INT64, [2], struct.pack("<2q", -1, inner)))
            out += [
                _make("Abs", [x], [p + "abs"]),
                _make("ReduceMax", [p + "abs"], [p + "max"], axes=[-1], keepdims=1),
                _make("Max", [p + "max", "int8_tiny"], [p + "top"]),
                _make("Mul", [p + "top", "int8_per_step"], [p + "step3"]),
                _make("Reshape", [p + "step3", "int8_flat"], [p + "step"]),
                _make("Unsqueeze", [p + "step", "int8_axis1"], [p + "step_col"]),
                _make("Shape", [p + "step"], [p + "rows"]),
                _make("Expand", ["int8_zero_point", p + "rows"], [p + "zero"]),
                _make("Reshape", [x, shape], [p + "x2"]),
                _make("QuantizeLinear", [p + "x2", p + "step", p + "zero"], [p + "q"], axis=0),
                _make("Shape", [x], [p + "lead"], end=-1),
            ]
            rows[x] = (p + "q", p)
        xq, p = rows[x]
        m = f"int8_mm{products}_"
        products += 1
        out += [
            _make(
                "MatMulIntegerToFloat",
                [xq, q, "int8_one", scale, "int8_zero_point"],
                [m + "y"],
                domain="com.microsoft",
            ),
            _make("Mul", [m + "y", p + "step_col"], [m + "scaled"]),
            _make("Concat", [p + "lead", "int8_flat"], [m + "shape"], axis=0),
            _make("Reshape", [m + "scaled", m + "shape"], [y]),
        ]
    if not products:
        raise EmbedderError("the model has no int8 weights this rewrite knows")
    needed = _graph_outputs(others)
    kept: list[_Node] = []
    for n in reversed(out):
        if any(o in needed for o in n.outputs):
            kept.append(n)
            needed.update(i for i in n.inputs if i)
    kept.reverse()
    fields: list[Field] = [(1, _LEN, n.encode()) for n in kept]
    for number, wire, value in others:
        if number == 5 and isinstance(value, bytes) and _tensor_head(value)[0] not in needed:
            continue
        fields.append((number, wire, value))
    fields += [(5, _LEN, t) for t in extra if _tensor_head(t)[0] in needed]
    top[graph_at[0]] = (7, _LEN, _encode(fields))
    top.append((8, _LEN, _encode([(1, _LEN, b"com.microsoft"), (2, _VARINT, 1)])))
    return _encode(top)


def _graph_outputs(others: list[Field]) -> set[str]:
    names = set()
    for number, _, value in others:
        if number == 12 and isinstance(value, bytes):
            for n, _, v in _fields(value):
                if n == 1 and isinstance(v, bytes):
                    names.add(v.decode())
    return names


def _int8_weight(
    node: _Node, made: dict[str, _Node], tensors: dict[str, tuple[int, list[int]]]
) -> tuple[str, str, int] | None:
    """(int8 weight, its column scales, inner width) when ``node`` multiplies by one."""
    if node.op != "MatMul":
        return None
    mul = made.get(node.inputs[1])
    if mul is None or mul.op != "Mul" or len(mul.inputs) != 2:
        return None
    cast = made.get(mul.inputs[0])
    scale = mul.inputs[1]
    if cast is None or cast.op != "Cast" or scale not in tensors:
        return None
    q = cast.inputs[0]
    kind, dims = tensors.get(q, (0, []))
    if kind != _INT8 or len(dims) != 2 or tensors[scale] != (_FLOAT, [1, dims[1]]):
        return None
    return q, scale, dims[0]
