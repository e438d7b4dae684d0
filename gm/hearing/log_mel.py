"""Whisper's input (pure, numpy): 16 kHz audio as 80 log-mel bands, 100 frames a second.

The same computation as Whisper's own feature extractor: a 400-point Hann-windowed STFT with a
160-sample hop, a Slaney-scale mel filterbank of 80 bands from 0 to 8 kHz, log10 of the power
clamped to 8 below the loudest, then scaled to about −1…1. Audio shorter than the frames asked
for is padded with silence, as Whisper pads its 30-second window.
"""

from __future__ import annotations

import functools
from typing import Any

RATE = 16000
N_FFT = 400
HOP = 160
N_MELS = 80
FRAMES_PER_SECOND = RATE // HOP


def _hz_to_mel(hz: Any) -> Any:
    import numpy as np

    linear = 200.0 / 3
    log_from = 1000.0
    step = np.log(6.4) / 27.0
    hz = np.asarray(hz, dtype=np.float64)
    return np.where(hz >= log_from, log_from / linear + np.log(np.maximum(hz, 1e-10) / log_from) / step, hz / linear)


def _mel_to_hz(mel: Any) -> Any:
    import numpy as np

    linear = 200.0 / 3
    log_from = 1000.0
    step = np.log(6.4) / 27.0
    mel = np.asarray(mel, dtype=np.float64)
    return np.where(mel >= log_from / linear, log_from * np.exp(step * (mel - log_from / linear)), linear * mel)


@functools.cache
def mel_filters() -> Any:
    """The (N_MELS, N_FFT // 2 + 1) Slaney-normalised mel filterbank."""
    import numpy as np

    bins = np.fft.rfftfreq(N_FFT, 1 / RATE)
    edges = _mel_to_hz(np.linspace(_hz_to_mel(0.0), _hz_to_mel(RATE / 2), N_MELS + 2))
    widths = np.diff(edges)
    ramps = edges[:, None] - bins[None, :]
    rising = -ramps[:-2] / widths[:-1, None]
    falling = ramps[2:] / widths[1:, None]
    weights = np.maximum(0.0, np.minimum(rising, falling))
    weights *= (2.0 / (edges[2:] - edges[:-2]))[:, None]
    return weights.astype(np.float32)


@functools.cache
def _window() -> Any:
    import numpy as np

    return np.hanning(N_FFT + 1)[:-1].astype(np.float32)


def log_mel(samples: Any, frames: int) -> Any:
    """The (N_MELS, `frames`) float32 log-mel spectrogram of float `samples` (−1…1) at 16 kHz,
    padded with silence or cut to `frames` frames."""
    import numpy as np

    audio = np.zeros(frames * HOP, dtype=np.float32)
    audio[: min(len(samples), len(audio))] = samples[: len(audio)]
    padded = np.pad(audio, (N_FFT // 2, N_FFT // 2), mode="reflect")
    starts = HOP * np.arange(frames)
    spectrum = np.fft.rfft(padded[starts[:, None] + np.arange(N_FFT)[None, :]] * _window(), axis=1)
    power = (np.abs(spectrum) ** 2).T.astype(np.float32)
    mel = np.log10(np.maximum(mel_filters() @ power, 1e-10))
    mel = np.maximum(mel, mel.max() - 8.0)
    return ((mel + 4.0) / 4.0).astype(np.float32)
