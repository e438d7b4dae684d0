"""A vosk model's folder, checked before vosk sees it: the acoustic model, its configuration, a
decoding graph, and the i-vector extractor when the acoustic model takes i-vectors."""

from __future__ import annotations

from pathlib import Path

from gm.hearing.cannot_listen import NoModel

MODEL_FILES = ("am/final.mdl", "conf/mfcc.conf", "conf/model.conf")
GRAPHS = (("graph/HCLG.fst",), ("graph/HCLr.fst", "graph/Gr.fst"))  # a full graph, or a lookahead one
IVECTOR_FILES = ("ivector/final.ie", "ivector/final.dubm", "ivector/final.mat", "ivector/global_cmvn.stats",
                 "ivector/online_cmvn.conf", "ivector/splice.conf")
_NNET_START = b"<Nnet3>"
_NNET_SEARCH = 64 << 20  # the acoustic network's header lies after the transition model


def check_model(path: Path, given: str) -> Path:
    """`path` (or its `model/` folder) when it holds a vosk model: the acoustic model, its
    configuration, a decoding graph, and the i-vector extractor when the acoustic model takes
    i-vectors. NoModel names what is missing."""
    shown = given if len(given) <= 80 else given[:77] + "..."
    try:
        if not (path / "am").is_dir() and (path / "model" / "am").is_dir():
            path = path / "model"
        if not path.is_dir():
            raise NoModel(f"speech model {shown!r} is not a directory", "model_not_folder", path=shown)
        missing = _missing(path)
    except OSError as error:
        raise NoModel(f"speech model path {shown!r} cannot be used ({error.strerror or error})",
                      "model_unreadable", path=shown, detail=error.strerror or str(error)) from error
    if missing:
        raise NoModel(f"speech model {shown!r} is not a vosk model (no {', '.join(missing)})", "model_incomplete",
                      path=shown, files=", ".join(missing))
    return path


def _missing(path: Path) -> list[str]:
    """The files of a vosk model that `path` lacks (a decoding graph named as its choices)."""
    missing = [f for f in MODEL_FILES if not (path / f).is_file()] + _no_graph(path)
    if "am/final.mdl" not in missing and _takes_ivectors(path / "am" / "final.mdl"):
        missing += [f for f in IVECTOR_FILES if not (path / f).is_file()]
    return missing


def _no_graph(path: Path) -> list[str]:
    """The decoding graphs to choose from, when `path` holds none whole."""
    if any(all((path / f).is_file() for f in graph) for graph in GRAPHS):
        return []
    return [" or ".join("+".join(graph) for graph in GRAPHS)]


def _takes_ivectors(acoustic_model: Path) -> bool:
    """Whether the nnet3 acoustic model has an i-vector input (then vosk needs ivector/)."""
    tail = b""
    with acoustic_model.open("rb") as f:
        for _ in range(_NNET_SEARCH >> 20):
            chunk = f.read(1 << 20)
            if not chunk:
                return False
            window = tail + chunk
            start = window.find(_NNET_START)
            if start >= 0:
                header = window[start:start + 4096]
                header += f.read(max(0, 4096 - len(header)))
                return b"input-node name=ivector " in header
            tail = window[-len(_NNET_START):]
    return False
