;; The byte-search kernel of log search: finds a needle in raw file bytes, exactly or with ASCII
;; letters folded to lower case, 16 candidate positions per step with 128-bit SIMD. The JS side
;; (memory, needles, pooling) is scan_kernel.ts; `deno task build` compiles this file with wabt
;; into scan_kernel.wasm.gen.ts, and `deno task check` fails when that file is stale.
;;
;; Algorithm (the "generic SIMD" substring search): for a needle of m bytes, load 16 haystack
;; bytes at i and 16 at i + m - 1, compare them with the needle's first and last byte splatted
;; over 16 lanes, and AND the two results: lane k is set only where the needle may start at
;; i + k. Only those positions (the set bits of the mask, lowest first) are checked byte by byte
;; (bytes 1 .. m - 2; the first and last already matched). Then i moves on by 16.
;;
;; Case folding: the caller stores the needle already folded; with `fold` = 1 each haystack byte
;; b is folded before the compare as b | 0x20 when b - 'A' <= 25 unsigned (only A-Z change); with
;; `fold` = 2 every byte is (b - 0 <= 255 always holds): letters beyond ASCII whose case forms
;; differ in that bit of their UTF-8 bytes only (`ü`/`Ü`, `и`/`И`) then compare equal, as do some
;; other bytes (the caller tests the lines found).
;;
;; `dfa` runs a table-driven automaton (built by regex_dfa.ts) over whole lines: see below.
;;
;; Memory (imported as env.mem, set up by scan_kernel.ts): the needles at offset 0 (at most
;; 4096 bytes), the haystack from offset 4096. The 16-byte loads read up to 15 bytes past `end`
;; (scan_kernel.ts keeps 16 + 4096 bytes readable there); a match crossing `end` is never returned.
(module
  (import "env" "mem" (memory 1))

  ;; The first position p in [start, end - m] where the m needle bytes at `needle` occur, or -1.
  ;; All arguments are memory offsets or lengths (m >= 1); `fold` is 0, 1 or 2.
  (func (export "find")
    (param $start i32) (param $end i32) (param $needle i32) (param $m i32) (param $fold i32)
    (result i32)
    (local $i i32) (local $mask i32) (local $p i32) (local $j i32) (local $a i32) (local $b i32)
    (local $first v128) (local $last v128) (local $va v128) (local $vb v128)
    (local $A v128) (local $n25 v128) (local $x20 v128) (local $lo i32) (local $span i32)
    (local $m1 i32) (local $t v128)

    (local.set $first (i8x16.splat (i32.load8_u (local.get $needle))))
    (local.set $last (i8x16.splat
      (i32.load8_u (i32.sub (i32.add (local.get $needle) (local.get $m)) (i32.const 1)))))
    ;; the bytes folded: b - lo < span unsigned ('A' and 26 for A-Z; 0 and 256 for all)
    (local.set $lo (select (i32.const 0) (i32.const 65) (i32.eq (local.get $fold) (i32.const 2))))
    (local.set $span (select (i32.const 256) (i32.const 26) (i32.eq (local.get $fold) (i32.const 2))))
    (local.set $A (i8x16.splat (local.get $lo)))
    (local.set $n25 (i8x16.splat (i32.sub (local.get $span) (i32.const 1))))
    (local.set $x20 (i8x16.splat (i32.const 0x20))) ;; the lower-case bit
    (local.set $m1 (i32.sub (local.get $m) (i32.const 1)))
    (local.set $i (local.get $start))
    (block $done
      (loop $scan
        ;; while (i + m <= end)
        (br_if $done (i32.gt_s (i32.add (local.get $i) (local.get $m)) (local.get $end)))
        ;; Fast skip: while none of the next 64 positions can start a match (the first and last
        ;; needle bytes compared at each, folded as below; one loop per folding mode), move on
        ;; by 64; else fall through to the 16-position step.
        (block $slow
          (if (i32.eqz (local.get $fold))
            (then
            (loop $fast0
              (br_if $done (i32.gt_s (i32.add (local.get $i) (local.get $m)) (local.get $end)))
              (br_if $slow (v128.any_true (v128.or
                (v128.or
                (v128.and
                (i8x16.eq (v128.load align=1 (i32.add (local.get $i) (i32.const 0))) (local.get $first))
                (i8x16.eq (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 0)))) (local.get $last)))
                (v128.and
                (i8x16.eq (v128.load align=1 (i32.add (local.get $i) (i32.const 16))) (local.get $first))
                (i8x16.eq (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 16)))) (local.get $last))))
                (v128.or
                (v128.and
                (i8x16.eq (v128.load align=1 (i32.add (local.get $i) (i32.const 32))) (local.get $first))
                (i8x16.eq (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 32)))) (local.get $last)))
                (v128.and
                (i8x16.eq (v128.load align=1 (i32.add (local.get $i) (i32.const 48))) (local.get $first))
                (i8x16.eq (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 48)))) (local.get $last)))))))
              (local.set $i (i32.add (local.get $i) (i32.const 64)))
              (br $fast0)))
            (else (if (i32.eq (local.get $fold) (i32.const 2))
              (then
              (loop $fast2
              (br_if $done (i32.gt_s (i32.add (local.get $i) (local.get $m)) (local.get $end)))
              (br_if $slow (v128.any_true (v128.or
                (v128.or
                (v128.and
                (i8x16.eq (v128.or (v128.load align=1 (i32.add (local.get $i) (i32.const 0))) (local.get $x20)) (local.get $first))
                (i8x16.eq (v128.or (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 0)))) (local.get $x20)) (local.get $last)))
                (v128.and
                (i8x16.eq (v128.or (v128.load align=1 (i32.add (local.get $i) (i32.const 16))) (local.get $x20)) (local.get $first))
                (i8x16.eq (v128.or (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 16)))) (local.get $x20)) (local.get $last))))
                (v128.or
                (v128.and
                (i8x16.eq (v128.or (v128.load align=1 (i32.add (local.get $i) (i32.const 32))) (local.get $x20)) (local.get $first))
                (i8x16.eq (v128.or (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 32)))) (local.get $x20)) (local.get $last)))
                (v128.and
                (i8x16.eq (v128.or (v128.load align=1 (i32.add (local.get $i) (i32.const 48))) (local.get $x20)) (local.get $first))
                (i8x16.eq (v128.or (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 48)))) (local.get $x20)) (local.get $last)))))))
              (local.set $i (i32.add (local.get $i) (i32.const 64)))
              (br $fast2)))
              (else
              (loop $fast1
              (br_if $done (i32.gt_s (i32.add (local.get $i) (local.get $m)) (local.get $end)))
              (br_if $slow (v128.any_true (v128.or
                (v128.or
                (v128.and
                (i8x16.eq (v128.or (local.tee $t (v128.load align=1 (i32.add (local.get $i) (i32.const 0))))
                (v128.and (i8x16.le_u (i8x16.sub (local.get $t) (local.get $A)) (local.get $n25))
                  (local.get $x20))) (local.get $first))
                (i8x16.eq (v128.or (local.tee $t (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 0)))))
                (v128.and (i8x16.le_u (i8x16.sub (local.get $t) (local.get $A)) (local.get $n25))
                  (local.get $x20))) (local.get $last)))
                (v128.and
                (i8x16.eq (v128.or (local.tee $t (v128.load align=1 (i32.add (local.get $i) (i32.const 16))))
                (v128.and (i8x16.le_u (i8x16.sub (local.get $t) (local.get $A)) (local.get $n25))
                  (local.get $x20))) (local.get $first))
                (i8x16.eq (v128.or (local.tee $t (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 16)))))
                (v128.and (i8x16.le_u (i8x16.sub (local.get $t) (local.get $A)) (local.get $n25))
                  (local.get $x20))) (local.get $last))))
                (v128.or
                (v128.and
                (i8x16.eq (v128.or (local.tee $t (v128.load align=1 (i32.add (local.get $i) (i32.const 32))))
                (v128.and (i8x16.le_u (i8x16.sub (local.get $t) (local.get $A)) (local.get $n25))
                  (local.get $x20))) (local.get $first))
                (i8x16.eq (v128.or (local.tee $t (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 32)))))
                (v128.and (i8x16.le_u (i8x16.sub (local.get $t) (local.get $A)) (local.get $n25))
                  (local.get $x20))) (local.get $last)))
                (v128.and
                (i8x16.eq (v128.or (local.tee $t (v128.load align=1 (i32.add (local.get $i) (i32.const 48))))
                (v128.and (i8x16.le_u (i8x16.sub (local.get $t) (local.get $A)) (local.get $n25))
                  (local.get $x20))) (local.get $first))
                (i8x16.eq (v128.or (local.tee $t (v128.load align=1 (i32.add (local.get $i) (i32.add (local.get $m1) (i32.const 48)))))
                (v128.and (i8x16.le_u (i8x16.sub (local.get $t) (local.get $A)) (local.get $n25))
                  (local.get $x20))) (local.get $last)))))))
              (local.set $i (i32.add (local.get $i) (i32.const 64)))
              (br $fast1)))))))
        ;; va = 16 bytes at i, vb = 16 bytes at i + m - 1, folded when asked
        (local.set $va (v128.load align=1 (local.get $i)))
        (if (local.get $fold)
          (then (local.set $va (v128.or (local.get $va) (v128.and
            (i8x16.le_u (i8x16.sub (local.get $va) (local.get $A)) (local.get $n25))
            (local.get $x20))))))
        (local.set $vb (v128.load align=1
          (i32.sub (i32.add (local.get $i) (local.get $m)) (i32.const 1))))
        (if (local.get $fold)
          (then (local.set $vb (v128.or (local.get $vb) (v128.and
            (i8x16.le_u (i8x16.sub (local.get $vb) (local.get $A)) (local.get $n25))
            (local.get $x20))))))
        ;; bit k of mask: the first and last needle bytes match at i + k
        (local.set $mask (i8x16.bitmask (v128.and
          (i8x16.eq (local.get $va) (local.get $first))
          (i8x16.eq (local.get $vb) (local.get $last)))))
        (block $next
          (loop $candidate
            (br_if $next (i32.eqz (local.get $mask)))
            ;; p = the lowest candidate; positions come in order, so once one crosses `end`,
            ;; all later ones do
            (if (i32.gt_s
                  (i32.add
                    (local.tee $p (i32.add (local.get $i) (i32.ctz (local.get $mask))))
                    (local.get $m))
                  (local.get $end))
              (then (return (i32.const -1))))
            ;; verify bytes 1 .. m - 2
            (local.set $j (i32.const 1))
            (block $miss
              (loop $verify
                (if (i32.ge_s (local.get $j) (i32.sub (local.get $m) (i32.const 1)))
                  (then (return (local.get $p))))
                (local.set $a (i32.load8_u (i32.add (local.get $p) (local.get $j))))
                (if (local.get $fold)
                  (then
                    (local.set $a (i32.or (local.get $a)
                      (i32.shl
                        (i32.lt_u (i32.sub (local.get $a) (local.get $lo)) (local.get $span))
                        (i32.const 5))))))
                (local.set $b (i32.load8_u (i32.add (local.get $needle) (local.get $j))))
                (br_if $miss (i32.ne (local.get $a) (local.get $b)))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $verify)))
            ;; clear the lowest set bit: the next candidate
            (local.set $mask (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))
            (br $candidate)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $scan)))
    (i32.const -1))

  ;; The automaton: `dfa` scans whole lines from `i` (a line start) to `end`, one table lookup
  ;; per byte: s = load32(s + 4 * byte), where s is the address of the current state's row of
  ;; 256 entries (a state's entries hold the address of the next row), starting each line at
  ;; `start`. A negative entry is special: -1 the line is a candidate, -2 an LF ends a line that
  ;; is not. A line longer than `cap` bytes is a candidate too (RE2 tests it cut to `cap`).
  ;; Returns the position of the byte where a candidate was found (the LF for the last two
  ;; cases), or -1 when `end` is reached.
  (func (export "dfa")
    (param $i i32) (param $end i32) (param $start i32) (param $cap i32) (result i32)
    (local $s i32) (local $ls i32)
    (local.set $s (local.get $start))
    (local.set $ls (local.get $i))
    (block $done
      (loop $scan
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $s (i32.load (i32.add (local.get $s)
          (i32.shl (i32.load8_u (local.get $i)) (i32.const 2)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $scan (i32.ge_s (local.get $s) (i32.const 0)))
        (if (i32.eq (local.get $s) (i32.const -1))
          (then (return (i32.sub (local.get $i) (i32.const 1)))))
        (if (i32.gt_u (i32.sub (i32.sub (local.get $i) (i32.const 1)) (local.get $ls))
              (local.get $cap))
          (then (return (i32.sub (local.get $i) (i32.const 1)))))
        (local.set $s (local.get $start))
        (local.set $ls (local.get $i))
        (br $scan)))
    (i32.const -1)))
