package io.weir.cli;

/**
 * The StatefulSet that runs the application's instances, as {@code weir upgrade} scales it: to 0
 * so that Kubernetes does not restart the instances a savepoint stopped, and back; and annotates it
 * with what the upgrade did ({@link UpgradeMark}). One implementation goes through the Kubernetes
 * API ({@link KubernetesOptions}); failures are unchecked and name the call.
 */
interface StatefulSetScale {

    /** Its name, for messages. */
    String name();

    /** {@code spec.replicas}. */
    int replicas();

    /** Sets {@code spec.replicas}. */
    void scaleTo(int replicas);

    /** The value of annotation {@code key}; empty when there is none. */
    java.util.Optional<String> annotation(String key);

    /** Sets annotation {@code key}; null removes it. */
    void annotate(String key, String value);
}
