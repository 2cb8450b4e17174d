package io.weir.errors;

/**
 * A call that the instance's life cycle does not allow now: starting an instance twice, or a
 * bounded run closed before the end of its input. Nothing was changed by the call; the message
 * says which state the instance is in.
 */
public class InstanceStateException extends WeirException {

    private static final long serialVersionUID = 1L;

    public InstanceStateException(String message) {
        super(message);
    }
}
