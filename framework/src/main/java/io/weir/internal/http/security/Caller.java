package io.weir.internal.http.security;

import java.net.InetAddress;
import java.util.Optional;

/**
 * What a request shows of who sent it.
 *
 * @param remote              the address the connection comes from
 * @param authorization       the {@code Authorization} header, if any
 * @param verifiedCertificate true if the client presented a certificate the trust store verified
 *                            during the TLS handshake (mTLS)
 */
public record Caller(InetAddress remote, Optional<String> authorization, boolean verifiedCertificate) {}
