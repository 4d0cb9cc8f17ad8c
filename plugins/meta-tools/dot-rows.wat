;; Dot products of one query with every row of a matrix, in WebAssembly SIMD (plugins/meta-tools/dot-rows.ts).
;; scan(query, rows, count, stride, out): out[r] = sum over i < stride of query[i] * rows[r * stride + i],
;; for r < count; every argument but count and stride is a byte offset into the imported memory;
;; stride is a multiple of 8 (rows are padded with zeros), so each step takes 8 floats in two f32x4 lanes.
(module
  (import "env" "memory" (memory 1))
  (func (export "scan") (param $query i32) (param $rows i32) (param $count i32) (param $stride i32) (param $out i32)
    (local $r i32) (local $i i32) (local $rowBytes i32) (local $a v128) (local $b v128)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 2)))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $count)))
        (local.set $a (v128.const f32x4 0 0 0 0))
        (local.set $b (v128.const f32x4 0 0 0 0))
        (local.set $i (i32.const 0))
        (block $rowDone
          (loop $step
            (br_if $rowDone (i32.ge_u (local.get $i) (local.get $rowBytes)))
            (local.set $a (f32x4.add (local.get $a)
              (f32x4.mul (v128.load (i32.add (local.get $query) (local.get $i)))
                         (v128.load (i32.add (local.get $rows) (local.get $i))))))
            (local.set $b (f32x4.add (local.get $b)
              (f32x4.mul (v128.load offset=16 (i32.add (local.get $query) (local.get $i)))
                         (v128.load offset=16 (i32.add (local.get $rows) (local.get $i))))))
            (local.set $i (i32.add (local.get $i) (i32.const 32)))
            (br $step)))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (f32.add (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
                   (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $rows (i32.add (local.get $rows) (local.get $rowBytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row)))))
