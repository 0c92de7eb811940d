//! TLS for the daemon and its clients, with rustls (the `ring` provider): the server's
//! configuration from a PEM certificate chain and key ([`server_config`]), and the client's
//! trust, the platform's roots or the certificates of a CA file.
//!
//! Every refusal is a sentence naming the file and what was wrong with it.

use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ClientConfig, RootCertStore, ServerConfig};

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Every certificate of the PEM file at `path` (at least one).
fn certificates(path: &Path, what: &str) -> Result<Vec<CertificateDer<'static>>, String> {
    let read = CertificateDer::pem_file_iter(path)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| {
            format!(
                "the {what} {} could not be read as PEM: {e}",
                path.display()
            )
        })?;
    if read.is_empty() {
        return Err(format!(
            "the {what} {} holds no certificate (a PEM block `BEGIN CERTIFICATE`)",
            path.display()
        ));
    }
    Ok(read)
}

/// The server's TLS configuration: the certificate chain of `cert` (PEM, the daemon's own
/// certificate first) and the private key of `key` (PEM: PKCS #8, PKCS #1 or SEC1).
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, String> {
    let chain = certificates(cert, "certificate file")?;
    let key_der = PrivateKeyDer::from_pem_file(key).map_err(|e| {
        format!(
            "the key file {} holds no usable private key (PEM: PKCS #8, PKCS #1 or SEC1): {e}",
            key.display()
        )
    })?;
    let config = ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS could not be configured: {e}"))?
        .with_no_client_auth()
        .with_single_cert(chain, key_der)
        .map_err(|e| {
            format!(
                "the certificate {} and the key {} do not make a TLS identity: {e}",
                cert.display(),
                key.display()
            )
        })?;
    Ok(Arc::new(config))
}

/// A client's TLS configuration: trusting the certificates of `ca_file` (PEM) only, or
/// without one the platform's roots.
pub(super) fn client_config(ca_file: Option<&Path>) -> Result<Arc<ClientConfig>, String> {
    let mut roots = RootCertStore::empty();
    match ca_file {
        Some(path) => {
            for cert in certificates(path, "CA file")? {
                roots.add(cert).map_err(|e| {
                    format!(
                        "the CA file {} holds a certificate that cannot be a root: {e}",
                        path.display()
                    )
                })?;
            }
        }
        None => {
            let found = rustls_native_certs::load_native_certs();
            for cert in found.certs {
                // A platform root rustls cannot use is skipped, as browsers do.
                let _ = roots.add(cert);
            }
            if roots.is_empty() {
                return Err(
                    "the platform has no trusted root certificates; give the daemon's CA with a CA file"
                        .into(),
                );
            }
        }
    }
    let config = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS could not be configured: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}
