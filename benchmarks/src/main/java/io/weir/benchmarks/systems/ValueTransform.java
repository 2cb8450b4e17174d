package io.weir.benchmarks.systems;

/**
 * The stateless map every system under test applies: ASCII lower-case letters of the value become
 * upper case, every other byte is copied. It allocates a new array per record, as a real map
 * would, so that no system gets away with mutating its input in place.
 */
final class ValueTransform {

    private ValueTransform() {}

    static byte[] apply(byte[] value) {
        if (value == null) {
            return null;
        }
        byte[] out = new byte[value.length];
        for (int i = 0; i < value.length; i++) {
            byte b = value[i];
            out[i] = b >= 'a' && b <= 'z' ? (byte) (b - ('a' - 'A')) : b;
        }
        return out;
    }
}
