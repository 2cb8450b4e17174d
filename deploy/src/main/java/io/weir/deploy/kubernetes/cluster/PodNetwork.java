package io.weir.deploy.kubernetes.cluster;

/**
 * Where pods are and how they reach the host. {@code podman kube play} puts pods on the netavark
 * network {@code podman-default-kube-network} (10.89.0.0/24, bridge {@code podman1}); the host owns
 * its gateway address while a pod is attached, and {@code /etc/hosts} in every pod names it
 * {@code host.containers.internal}. Services on the host that pods call (the broker's pod
 * listener, the API server) bind every address and advertise this one.
 */
public final class PodNetwork {

    public static final String NAME = "podman-default-kube-network";
    public static final String GATEWAY = "10.89.0.1";
    /** The host's bridge of that network, which owns the gateway's address. */
    public static final String BRIDGE = "podman1";
    /** The name {@code /etc/hosts} gives the gateway in every pod. */
    public static final String HOST_NAME = "host.containers.internal";

    private PodNetwork() {}
}
