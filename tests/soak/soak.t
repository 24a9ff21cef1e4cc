#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The soak's short version for make check: 30 sessions, 10 at a time
# (make soak runs 200, 20 at a time, and writes tests/bench/soak.md).
exec bash "$(dirname "$0")/soak.sh" 30 10
