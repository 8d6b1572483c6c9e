//! [`V4`] as a plain array, on targets other than x86-64.

use super::V4;

impl V4 {
    #[inline(always)]
    fn map(self, f: impl Fn(u32) -> u32) -> V4 {
        V4(self.0.map(f))
    }
    #[inline(always)]
    fn zip(self, o: V4, f: impl Fn(u32, u32) -> u32) -> V4 {
        V4([f(self.0[0], o.0[0]), f(self.0[1], o.0[1]), f(self.0[2], o.0[2]), f(self.0[3], o.0[3])])
    }
    #[inline(always)]
    pub(in super::super) fn load(a: &[u32; 4]) -> V4 {
        V4(*a)
    }
    #[inline(always)]
    pub(in super::super) fn store(self, a: &mut [u32; 4]) {
        *a = self.0;
    }
    #[inline(always)]
    pub(in super::super) fn zero() -> V4 {
        V4([0; 4])
    }
    #[inline(always)]
    pub(in super::super) fn splat(x: u32) -> V4 {
        V4([x; 4])
    }
    #[inline(always)]
    pub(in super::super) fn bands(x: u32) -> V4 {
        V4([x, x, x, 0])
    }
    #[inline(always)]
    pub(in super::super) fn shr<const N: i32>(self) -> V4 {
        self.map(|x| x >> N)
    }
    #[inline(always)]
    pub(in super::super) fn shl<const N: i32>(self) -> V4 {
        self.map(|x| x << N)
    }
    #[inline(always)]
    pub(in super::super) fn sub(self, o: V4) -> V4 {
        self.zip(o, u32::wrapping_sub)
    }
    #[inline(always)]
    pub(in super::super) fn andnot(self, o: V4) -> V4 {
        self.zip(o, |a, b| a & !b)
    }
    #[inline(always)]
    pub(in super::super) fn eq(self, o: V4) -> bool {
        self.0 == o.0
    }
    #[inline(always)]
    pub(in super::super) fn is_zero(self) -> bool {
        self.0 == [0; 4]
    }
    #[inline(always)]
    pub(in super::super) fn to_array(self) -> [u32; 4] {
        self.0
    }
    #[inline(always)]
    pub(in super::super) fn zero_lanes(self) -> V4 {
        self.map(|x| if x == 0 { u32::MAX } else { 0 })
    }
    #[inline(always)]
    pub(in super::super) fn rotate_bands_1(self) -> V4 {
        V4([self.0[1], self.0[2], self.0[0], self.0[3]])
    }
    #[inline(always)]
    pub(in super::super) fn rotate_bands_2(self) -> V4 {
        V4([self.0[2], self.0[0], self.0[1], self.0[3]])
    }
}

impl std::ops::BitAnd for V4 {
    type Output = V4;
    #[inline(always)]
    fn bitand(self, o: V4) -> V4 {
        self.zip(o, |a, b| a & b)
    }
}
impl std::ops::BitOr for V4 {
    type Output = V4;
    #[inline(always)]
    fn bitor(self, o: V4) -> V4 {
        self.zip(o, |a, b| a | b)
    }
}
impl std::ops::BitXor for V4 {
    type Output = V4;
    #[inline(always)]
    fn bitxor(self, o: V4) -> V4 {
        self.zip(o, |a, b| a ^ b)
    }
}
