package io.weir.serde;

import io.weir.errors.SerdeException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The fixed-format serdes behind {@link Serdes}. */
final class FixedSerdes {

    private FixedSerdes() {}

    static final Serde<String> STRING = new Serde<>() {
        @Override
        public String formatId() {
            return "string";
        }

        @Override
        public byte[] serialize(String topic, String value) {
            return value == null ? null : value.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String deserialize(String topic, byte[] bytes) {
            return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
        }
    };

    static final Serde<Long> LONG = new Serde<>() {
        @Override
        public String formatId() {
            return "long";
        }

        @Override
        public byte[] serialize(String topic, Long value) {
            return value == null
                    ? null
                    : ByteBuffer.allocate(Long.BYTES).putLong(value).array();
        }

        @Override
        public Long deserialize(String topic, byte[] bytes) {
            return bytes == null
                    ? null
                    : ByteBuffer.wrap(checkLength(bytes, Long.BYTES, "long")).getLong();
        }
    };

    static final Serde<Integer> INTEGER = new Serde<>() {
        @Override
        public String formatId() {
            return "int";
        }

        @Override
        public byte[] serialize(String topic, Integer value) {
            return value == null
                    ? null
                    : ByteBuffer.allocate(Integer.BYTES).putInt(value).array();
        }

        @Override
        public Integer deserialize(String topic, byte[] bytes) {
            return bytes == null
                    ? null
                    : ByteBuffer.wrap(checkLength(bytes, Integer.BYTES, "int")).getInt();
        }
    };

    static final Serde<Double> DOUBLE = new Serde<>() {
        @Override
        public String formatId() {
            return "double";
        }

        @Override
        public byte[] serialize(String topic, Double value) {
            return value == null
                    ? null
                    : ByteBuffer.allocate(Double.BYTES).putDouble(value).array();
        }

        @Override
        public Double deserialize(String topic, byte[] bytes) {
            return bytes == null
                    ? null
                    : ByteBuffer.wrap(checkLength(bytes, Double.BYTES, "double"))
                            .getDouble();
        }
    };

    static final Serde<byte[]> BYTES = new Serde<>() {
        @Override
        public String formatId() {
            return "bytes";
        }

        @Override
        public byte[] serialize(String topic, byte[] value) {
            return value;
        }

        @Override
        public byte[] deserialize(String topic, byte[] bytes) {
            return bytes;
        }
    };

    static final Serde<java.util.UUID> UUID = new Serde<>() {
        @Override
        public String formatId() {
            return "uuid";
        }

        @Override
        public byte[] serialize(String topic, java.util.UUID value) {
            return value == null ? null : value.toString().getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public java.util.UUID deserialize(String topic, byte[] bytes) {
            if (bytes == null) {
                return null;
            }
            String s = new String(bytes, StandardCharsets.UTF_8);
            try {
                return java.util.UUID.fromString(s);
            } catch (IllegalArgumentException e) {
                throw new SerdeException("not a UUID: '" + abbreviate(s) + "'", e);
            }
        }
    };

    private static byte[] checkLength(byte[] bytes, int expected, String type) {
        if (bytes.length != expected) {
            throw new SerdeException("a " + type + " takes " + expected + " bytes, got " + bytes.length);
        }
        return bytes;
    }

    static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...";
    }
}
