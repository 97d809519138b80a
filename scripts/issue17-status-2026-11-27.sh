#!/bin/bash
# Issue 17 status: 73d321f (old, searchbench patched with --depth and a board print) against main, interleaved.
# Wrote the new-* and old-* files of data/search-speed/status-2026-11-27/ (its
# README). A record, not runnable as is: REPO is the repository, OLD_SEARCHBENCH
# the searchbench of 73d321f with scripts/searchbench-73d321f.patch applied,
# OUT the output folder; replace them before running.
cd REPO
P=data/search-speed/positions
OLD=OLD_SEARCHBENCH
NEW=target/release
out=OUT
for round in 1 2; do
  $NEW/analyze --variant othello8 --depth 12 $P/othello8-e40/p*.txt > $out/new-o8-d12-$round.txt
  $OLD --variant othello8 --empties 40 --positions 20 --seed 1 --depth 12 > $out/old-o8-d12-$round.txt
done
for round in 1 2; do
  $NEW/analyze --variant duo12 --depth 8 $P/duo12-e80/p*.txt > $out/new-d12-d8-$round.txt
  $OLD --variant duo12 --empties 80 --positions 20 --seed 1 --depth 8 > $out/old-d12-d8-$round.txt
done
$NEW/searchbench --variant othello8 --empties 40 --positions 20 --seed 1 --seconds 1 > $out/new-o8-1s.txt
$OLD --variant othello8 --empties 40 --positions 20 --seed 1 --seconds 1 > $out/old-o8-1s.txt
$NEW/searchbench --variant duo12 --empties 80 --positions 20 --seed 1 --seconds 1 > $out/new-d12-1s.txt
$OLD --variant duo12 --empties 80 --positions 20 --seed 1 --seconds 1 > $out/old-d12-1s.txt
echo done > $out/done
