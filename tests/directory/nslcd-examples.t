#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nslcd.t's cases for the shipped examples it leaves to this file (all but
# guest.conf), so that each file runs in under a minute.
NSLCD_PART=rest
. "$(dirname "$0")/nslcd.t"
