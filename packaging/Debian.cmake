# The Debian package (cpack -G DEB, or the `package` target): openflint_VERSION_ARCH.deb.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME openflint)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "openflint")
set(CPACK_PACKAGE_CONTACT "openflint maintainers <maintainers@users.noreply.a-seed-0123a8c3.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "firmware tools for InfiniBand/Ethernet adapters and switches")
# The extended description: lines under 80 columns (lintian).
set(CPACK_PACKAGE_DESCRIPTION
    "openflint queries, verifies and burns the firmware of InfiniBand/Ethernet
adapters and switches, following mstflint's command-line habits:
flint (images, MFA archives, devices, failsafe burn), fwburn (images from a
firmware description and a board INI), ibfwmgr (fabric-wide in-band inventory
and update), ibadm (the bus and name servers as a service), mst (device
listing and /dev/mst names), and hcasim, simfabric and ibsim-responder
(simulated devices and fabrics for trying and testing all of it).")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# simfabric starts ibsim and opensm and asks ibaddr for LIDs; the rest needs none of them.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "ibsim-utils, opensm, infiniband-diags")
# rdma-core's MAD libraries are dlopen()ed on the first in-band or fabric use (mtcr/inband/
# UmadLibrary, fabric/IbDiagLibrary), so shlibdeps no longer sees them: recommended, not required.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libibumad3, libibmad5, libibnetdisc5")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
include(CPack)
