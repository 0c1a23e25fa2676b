# Finds Kokkos (and, optionally, Kokkos Kernels) and repairs Debian/Trilinos packaging.
#
# Debian 12's libtrilinos-kokkos-dev (Kokkos 3.4.01) exports Kokkos::kokkos with the include directory
# <prefix>/include, but its headers live in <prefix>/include/trilinos. Kokkos_INCLUDE_DIRS (set by the same config
# file) is right, so when the target's directory lacks Kokkos_Core.hpp we point the target at Kokkos_INCLUDE_DIRS.
# Its Kokkos Kernels package exports only trilinos_kokkoskernels (no namespaced target, same include problem):
# spk_kokkoskernels below is the one name the rest of the build uses for either packaging.

function(spk_repair_include_dirs target header candidates)
  get_target_property(_dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  foreach(_d IN LISTS _dirs)
    if(EXISTS "${_d}/${header}")
      return()
    endif()
  endforeach()
  foreach(_d IN LISTS candidates)
    get_filename_component(_d "${_d}" ABSOLUTE)
    if(EXISTS "${_d}/${header}")
      # Replace rather than append: CMake refuses imported targets that name a missing directory.
      set(_kept "${_d}")
      foreach(_old IN LISTS _dirs)
        if(_old AND EXISTS "${_old}")
          list(APPEND _kept "${_old}")
        endif()
      endforeach()
      message(STATUS "spk: repairing the include directories of ${target}: ${_kept}")
      set_property(TARGET ${target} PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${_kept}")
      return()
    endif()
  endforeach()
endfunction()

if(NOT TARGET Kokkos::kokkos)
  find_package(Kokkos REQUIRED)
endif()
spk_repair_include_dirs(Kokkos::kokkos Kokkos_Core.hpp "${Kokkos_INCLUDE_DIRS};/usr/include/trilinos")

# Kokkos Kernels is a yardstick only; spk_kokkoskernels exists when it was found.
if(SPK_WITH_KOKKOSKERNELS AND NOT TARGET spk_kokkoskernels)
  if(NOT TARGET Kokkos::kokkoskernels AND NOT TARGET trilinos_kokkoskernels)
    # Look beside the Kokkos in use first: a system Kokkos Kernels built for another Kokkos would not link.
    get_filename_component(_kokkos_prefix "${Kokkos_DIR}/../../.." ABSOLUTE)
    find_package(KokkosKernels QUIET HINTS "${_kokkos_prefix}")
    if(KokkosKernels_FOUND)
      set(_kk_version "${KokkosKernels_VERSION}")
      if(NOT _kk_version AND TARGET trilinos_kokkoskernels)
        # Trilinos's packaging (Debian 12: Kokkos Kernels 3.4) sets no version; it belongs with Trilinos's Kokkos 3.
        set(_kk_version "3 (Trilinos)")
      endif()
      string(REGEX MATCH "^[0-9]+" _kk_major "${_kk_version}")
      string(REGEX MATCH "^[0-9]+" _kokkos_major "${Kokkos_VERSION}")
      if(_kk_version AND NOT _kk_major STREQUAL _kokkos_major)
        message(STATUS "spk: ignoring Kokkos Kernels ${_kk_version} at ${KokkosKernels_DIR}: "
                       "it does not match Kokkos ${Kokkos_VERSION}")
        set(SPK_HAVE_KOKKOSKERNELS OFF)
        return()
      endif()
    endif()
  endif()
  if(TARGET Kokkos::kokkoskernels)
    add_library(spk_kokkoskernels INTERFACE IMPORTED GLOBAL)
    target_link_libraries(spk_kokkoskernels INTERFACE Kokkos::kokkoskernels)
  elseif(TARGET trilinos_kokkoskernels)
    spk_repair_include_dirs(trilinos_kokkoskernels KokkosSparse_spmv.hpp
                            "${KokkosKernels_INCLUDE_DIRS};${Kokkos_INCLUDE_DIRS};/usr/include/trilinos")
    add_library(spk_kokkoskernels INTERFACE IMPORTED GLOBAL)
    target_link_libraries(spk_kokkoskernels INTERFACE trilinos_kokkoskernels)
  endif()
endif()
if(TARGET spk_kokkoskernels)
  set(SPK_HAVE_KOKKOSKERNELS ON)
else()
  set(SPK_HAVE_KOKKOSKERNELS OFF)
endif()
