package io.weir.internal.kubernetes;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pod of a StatefulSet, known by its name: the StatefulSet controller names its pods
 * {@code <statefulset>-<ordinal>} (ordinals from 0, as long as {@code spec.ordinals.start} is
 * unset), and a scale-down to {@code n} replicas removes the pods with ordinals {@code n} and above,
 * highest first.
 */
record StatefulSetPod(String statefulSet, int ordinal) {

    private static final Pattern NAME = Pattern.compile("(.+)-(0|[1-9][0-9]{0,8})");

    /** The pod named {@code podName}; empty when the name is not {@code <statefulset>-<ordinal>}. */
    static Optional<StatefulSetPod> of(String podName) {
        Matcher m = NAME.matcher(podName);
        return m.matches()
                ? Optional.of(new StatefulSetPod(m.group(1), Integer.parseInt(m.group(2))))
                : Optional.empty();
    }

    /** True when a StatefulSet that wants {@code replicas} pods removes this one. */
    boolean removedAt(int replicas) {
        return ordinal >= replicas;
    }

    String name() {
        return statefulSet + "-" + ordinal;
    }
}
