# What the tests that run mpirun share: cli_lib.sh's checks, and Open MPI told that it may run
# as root (CI's user; other users are unaffected) and more ranks than cores.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
