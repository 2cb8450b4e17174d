package io.weir.internal.http;

import java.util.Map;

/**
 * One reason an instance is not live or not ready, as the health endpoints report it.
 *
 * @param kind    a stable machine-readable word: {@code failed}, {@code thread_dead},
 *                {@code starting}, {@code no_assignment}, {@code rebalancing}, {@code restoring},
 *                {@code stalled}, {@code stopping}
 * @param message one sentence for an operator
 * @param details further fields rendered into the JSON object beside kind and message (for
 *                {@code restoring}: {@code thread}, {@code task}, {@code store},
 *                {@code restored}, {@code remaining}; for {@code stalled}: {@code cause},
 *                {@code tasks}, {@code seconds}); values are strings, numbers, booleans or lists
 *                of them
 */
public record Problem(String kind, String message, Map<String, Object> details) {

    public Problem {
        details = Map.copyOf(details);
    }

    public static Problem of(String kind, String message) {
        return new Problem(kind, message, Map.of());
    }
}
