package io.weir.serde;

import java.util.Objects;
import java.util.Optional;

/**
 * Decides whether data written in one serde format can be read by a serde of another, so that
 * Weir's compatibility checks (the recorded topology at start-up, {@code weir topology diff}, a
 * savepoint restore) accept a schema change that the format's own rules accept, and refuse, naming
 * the field, one they refuse. Without an evolution that knows both format ids, a changed
 * {@link Serde#formatId()} is a change of format and refused for kept state.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/io.weir.serde.FormatEvolution} entry), once per process; they must be
 * pure functions of the two ids (the checks run where only the ids are known, in the CLI too) and
 * thread-safe. {@code weir-serde-registry} brings one for its Avro, Protobuf and JSON Schema ids.
 */
public interface FormatEvolution {

    /**
     * The verdict on reading, with a serde whose format id is {@code reading}, the bytes a serde
     * of format id {@code written} wrote; empty when this evolution does not know both ids (the
     * next one is asked; when none knows them, different ids are incompatible).
     */
    Optional<Verdict> judge(String written, String reading);

    /**
     * A short name of a format id for messages (a schema's subject and fingerprint rather than
     * the whole schema); empty when the id is not this evolution's.
     */
    default Optional<String> label(String formatId) {
        return Optional.empty();
    }

    /** Whether the old bytes can be read, and why (the change in words; for a refusal, the field). */
    record Verdict(boolean readable, String reason) {
        public Verdict {
            Objects.requireNonNull(reason, "reason");
        }

        public static Verdict readable(String reason) {
            return new Verdict(true, reason);
        }

        public static Verdict unreadable(String reason) {
            return new Verdict(false, reason);
        }
    }
}
