package io.weir.errors;

/**
 * The instance stopped on a fatal error, which is this exception's cause (often itself a
 * {@link WeirException}: a {@link ProcessingException}, a {@link ClusterException}). What the
 * instance committed before the failure stays committed; a restart with the same
 * {@code instance.id} continues from there once the cause is dealt with.
 */
public class InstanceFailedException extends WeirException {

    private static final long serialVersionUID = 1L;

    public InstanceFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
