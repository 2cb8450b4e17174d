package io.weir.errors;

/**
 * The topology cannot run as declared: a node names a parent or store that does not exist, the
 * inputs of a stateful sub-topology are not co-partitioned, or the topology is incompatible with
 * the state it would start from (a store changed its kind or format). Thrown when the topology is
 * built or when an instance starts, never half-way through processing; the message names the node,
 * store or topics and what would fit.
 */
public class TopologyException extends WeirException {

    private static final long serialVersionUID = 1L;

    public TopologyException(String message) {
        super(message);
    }

    public TopologyException(String message, Throwable cause) {
        super(message, cause);
    }
}
