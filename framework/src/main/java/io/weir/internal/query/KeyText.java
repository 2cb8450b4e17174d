package io.weir.internal.query;

import io.weir.serde.Serde;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

/**
 * Keys as a URL carries them: the text form of a key for the built-in serdes, or the serialized
 * bytes in base64url for any serde.
 *
 * <ul>
 *   <li>{@code string}: the text itself;</li>
 *   <li>{@code long}, {@code int}, {@code double}: the decimal number ({@code 42}, {@code -1.5});</li>
 *   <li>{@code uuid}: the canonical form;</li>
 *   <li>{@code json}: the key's JSON text ({@code {"id":7}}, a string with its quotes), read by the
 *       store's serde and written again, so spacing and field order do not matter as long as the
 *       serde reads them;</li>
 *   <li>{@code bytes} and any other serde: base64url of the serialized key, as with
 *       {@code keyEncoding=base64} for every serde.</li>
 * </ul>
 */
public final class KeyText {

    private KeyText() {}

    /** How a key is spelled in a request. */
    public enum Encoding {
        /** The key's text form for its serde (the default). */
        TEXT,
        /** Base64url (padding optional) of the serialized key. */
        BASE64;

        /** The {@code keyEncoding} parameter: absent or {@code text}, or {@code base64}. */
        public static Encoding parse(String value) {
            if (value == null || value.equalsIgnoreCase("text")) {
                return TEXT;
            }
            if (value.equalsIgnoreCase("base64")) {
                return BASE64;
            }
            throw new IllegalArgumentException("keyEncoding must be text or base64, not '" + value + "'");
        }
    }

    /**
     * The serialized key spelled {@code text}.
     *
     * @throws IllegalArgumentException saying what the serde expects, if {@code text} is not a key of it
     */
    public static byte[] bytes(Serde<?> serde, String text, Encoding encoding) {
        if (encoding == Encoding.BASE64 || !hasTextForm(serde)) {
            try {
                return Base64.getUrlDecoder().decode(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + text + "' is not base64url"
                        + (encoding == Encoding.BASE64
                                ? ""
                                : " (keys of serde " + serde.formatId()
                                        + " are given as their serialized bytes in base64url)")
                        + ": " + e.getMessage());
            }
        }
        @SuppressWarnings("unchecked")
        Serde<Object> s = (Serde<Object>) serde;
        try {
            Object key = switch (serde.formatId()) {
                case "string" -> text;
                case "long" -> Long.parseLong(text);
                case "int" -> Integer.parseInt(text);
                case "double" -> Double.parseDouble(text);
                case "uuid" -> UUID.fromString(text);
                default -> s.deserialize(null, text.getBytes(StandardCharsets.UTF_8)); // json
            };
            if (key == null) {
                throw new IllegalArgumentException("null is not a key");
            }
            return s.serialize(null, key);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a key of this store (its keys are " + describe(serde) + "): "
                            + e.getMessage(),
                    e);
        }
    }

    /** How keys of {@code serde} are spelled, for error messages and the docs. */
    static String describe(Serde<?> serde) {
        return switch (serde.formatId()) {
            case "string" -> "strings, given as the text itself";
            case "long", "int" -> serde.formatId() + "s, given in decimal";
            case "double" -> "doubles, given in decimal";
            case "uuid" -> "UUIDs";
            case "json" -> "JSON, given as JSON text";
            default -> "serialized by " + serde.formatId() + ", given as base64url";
        };
    }

    private static boolean hasTextForm(Serde<?> serde) {
        return switch (serde.formatId()) {
            case "string", "long", "int", "double", "uuid", "json" -> true;
            default -> false;
        };
    }
}
