#!/usr/bin/env bash
# The PNG icons from public/favicon.svg: apple-touch-icon.png (180×180, what
# iOS puts on the home screen) and icon-512.png (the og:image of link
# previews, which take no SVG). Committed, so a build needs none of this;
# run it again after changing the SVG.
#
# Needs rsvg-convert (Debian: librsvg2-bin) and a CJK font for the 导 of the
# SVG (Debian: fonts-noto-cjk); without the font the character would be
# drawn as an empty box, so the script refuses to run. The corners the SVG
# leaves transparent are filled with its blue: iOS rounds the icon itself and
# shows a transparent corner black, and a link preview wants an opaque image.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v rsvg-convert >/dev/null; then
  echo "rsvg-convert is missing: apt-get install librsvg2-bin" >&2
  exit 1
fi
if ! fc-list :lang=zh | grep -q .; then
  echo "no Chinese font: apt-get install fonts-noto-cjk" >&2
  exit 1
fi

for size in 180 512; do
  case $size in
    180) out=public/apple-touch-icon.png ;;
    512) out=public/icon-512.png ;;
  esac
  rsvg-convert --background-color "#1f5f8b" --width "$size" --height "$size" --output "$out" public/favicon.svg
  echo "$out"
done
