package io.weir.internal.config;

import java.util.Objects;

/**
 * What a Kafka client of an instance is for, as its meters are tagged: {@code role}, the part of
 * its client id after the application and instance ({@code consumer}, {@code producer},
 * {@code admin}, {@code state-restore-consumer}, ...), and {@code thread}, the stream thread that
 * owns it, or empty for the instance's own clients (Prometheus wants every series of a name to
 * have the same tags, so the tag is there, empty, rather than left out).
 */
public record ClientRole(String name, String thread) {

    public ClientRole {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(thread, "thread");
    }

    /** A client of the stream thread {@code thread}, such as its {@code consumer} or {@code producer}. */
    public static ClientRole ofThread(String name, String thread) {
        return new ClientRole(name, thread);
    }

    /** A client of the whole instance, such as its {@code admin} or the {@code liveness-consumer}. */
    public static ClientRole ofInstance(String name) {
        return new ClientRole(name, "");
    }
}
