package io.weir.errors;

/** A value could not be serialized or deserialized; the message says why. */
public class SerdeException extends WeirException {

    public SerdeException(String message) {
        super(message);
    }

    public SerdeException(String message, Throwable cause) {
        super(message, cause);
    }
}
