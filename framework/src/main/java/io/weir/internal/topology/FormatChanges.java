package io.weir.internal.topology;

import io.weir.serde.FormatEvolution;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Whether state written in one serde format can be read in another: equal ids can, and so can two
 * ids that a {@link FormatEvolution} on the class path judges readable (a compatible schema
 * change). The one rule the start-up check, {@code topology diff} and savepoint restores share.
 */
public final class FormatChanges {

    /** Ids longer than this (a whole schema) are shown by a label or a fingerprint. */
    private static final int SHOWN_CHARS = 80;

    private FormatChanges() {}

    /** The verdict on reading {@code written} bytes with a serde of format {@code reading}. */
    public static FormatEvolution.Verdict judge(String written, String reading) {
        if (Objects.equals(written, reading)) {
            return FormatEvolution.Verdict.readable("same format");
        }
        if (written != null && reading != null) {
            for (FormatEvolution e : Evolutions.ALL) {
                Optional<FormatEvolution.Verdict> v = e.judge(written, reading);
                if (v.isPresent()) {
                    return v.get();
                }
            }
        }
        return FormatEvolution.Verdict.unreadable("another format");
    }

    /** A format id as messages show it: itself when short, else its evolution's label or a fingerprint. */
    public static String label(String formatId) {
        if (formatId == null || formatId.length() <= SHOWN_CHARS) {
            return String.valueOf(formatId);
        }
        for (FormatEvolution e : Evolutions.ALL) {
            Optional<String> l = e.label(formatId);
            if (l.isPresent()) {
                return l.get();
            }
        }
        return formatId.substring(0, SHOWN_CHARS / 2) + "... (sha-256 " + fingerprint(formatId) + ")";
    }

    private static String fingerprint(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Loaded once, on first use: the class path does not change while a process runs. */
    private static final class Evolutions {
        static final List<FormatEvolution> ALL = ServiceLoader.load(FormatEvolution.class).stream()
                .map(ServiceLoader.Provider::get)
                .toList();
    }
}
